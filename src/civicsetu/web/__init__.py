"""The browser UI: static files served by the API app at ``/`` (see ``web/static``)."""
