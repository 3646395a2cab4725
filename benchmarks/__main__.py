"""``make bench``: the engines' speed benchmarks, one after the other (figures go into docs/performance.md).

The bot-strength and bot-latency benchmarks take longer or need PostgreSQL, Redis and a worker;
run them on their own (see docs/performance.md).
"""

from benchmarks import abbott_speed, load_speed, shedding_speed

if __name__ == "__main__":
    for policy in ("plays", "uniform"):
        shedding_speed.main(["--policy", policy])
        print()
    load_speed.main([])
    print()
    abbott_speed.main()
