"""Serving the service under an ASGI server, one job a module: which requests wait
(:mod:`routing`), the ASGI lifespan protocol (:mod:`lifespan`), ending open streams when the server
is told to stop (:mod:`stopping`), and the sweeps' schedule without a broker (:mod:`beat`).
``switchsite.asgi`` assembles them."""
