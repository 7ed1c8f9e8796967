"""The live-shoe web page and the analyser as a JSON service (``punto-banco serve``).

The top layer beside :mod:`analyzer.cli`, and as thin: requests are read into the same library
calls the commands make, and answered with the same builders (:mod:`analyzer.output`), so a
number from the service is the number ``punto-banco bets --format json`` prints.

* :mod:`~analyzer.web.limits`: what one request may ask (body size, bets, time, workers);
* :mod:`~analyzer.web.budget`: the work a request asks, refused before it starts;
* :mod:`~analyzer.web.jobs`: the work itself, run in worker processes (no web library there);
* :mod:`~analyzer.web.pool`: the worker processes (a timeout ends a worker, not the server);
* :mod:`~analyzer.web.models`: the request bodies (pydantic: the OpenAPI document's schemas);
* :mod:`~analyzer.web.app`: the ASGI application (FastAPI): routes, guards, the page;
* :mod:`~analyzer.web.server`: the server (uvicorn) on one socket, stopped cleanly by a signal.

FastAPI, pydantic and uvicorn come with the ``web`` extra (``pip install
'punto-banco-analyzer[web]'``); only :mod:`~analyzer.web.app`, :mod:`~analyzer.web.models`,
:mod:`~analyzer.web.pool` and :mod:`~analyzer.web.server` import them, so ``import analyzer``
and every other command never do.
"""
