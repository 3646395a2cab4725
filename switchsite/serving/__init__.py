"""Serving the service under an ASGI server, one job a module: which requests wait
(:mod:`routing`), waking them when events are committed (:mod:`notifier`), the ASGI lifespan
protocol (:mod:`lifespan`), ending open streams when the server is told to stop (:mod:`stopping`),
and the sweeps' schedule without a broker (:mod:`beat`). ``switchsite.asgi`` assembles them; the
apps' writers and waiting views use the notifier."""
