"""The page for people and the HTTP/JSON API for programs (``prefdd serve --http-port``)."""
