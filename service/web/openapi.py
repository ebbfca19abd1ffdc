"""The OpenAPI 3.1 description of the JSON API (``GET /api/v1/openapi.json``).

Request and answer objects are those of the command line (``prefdd batch``,
and each command's ``--json``); their fields are documented there and in the
README, so the schemas here name the required fields and leave the objects
open.
"""
from __future__ import annotations

from typing import Any

from solver import __version__

__all__ = ["openapi"]

_CALLS: dict[str, tuple[str, list[str]]] = {
    "solve": ("One `prefdd batch` request object; its answer object.", ["deal", "contract"]),
    "analyze": ("`prefdd analyze --json`: the table, best discards, the play card by card, the best line.",
                ["deal"]),
    "position": ("The position after `played`: whose move, each legal card's value, optionally the best line.",
                 ["deal", "contract"]),
    "whist": ("`prefdd whist --json`: whist or pass over the hidden layouts.",
              ["hand", "talon", "contract", "declarer", "seat"]),
    "bid": ("`prefdd bid --json`: every contract's chance and expected value.", ["hand", "seat"]),
    "enumerate": ("`prefdd enumerate --json`: every split of the defenders' cards.",
                  ["hand", "declarer", "contract"]),
    "play": ("`prefdd play --json`: each legal card's expected tricks and whists over the hidden cards.",
             ["hand", "contract", "declarer", "seat"]),
    "score": ("`prefdd score`: one scoring request object (`convention`, `kind`, `input`).",
              ["convention", "kind", "input"]),
}

_LINES = {"application/x-ndjson": {"schema": {
    "type": "string", "description": "JSON lines: `prefdd batch`'s input lines in, its output lines out (one "
                                    "answer line per non-blank input line, in order; a bad line answers "
                                    "`{\"error\": ...}` in its place); at most the server's max_batch_items lines"}}}
"""``solve``'s second form: ``prefdd batch``'s lines."""

_ERROR = {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _operation(name: str, summary: str, required: list[str]) -> dict[str, Any]:
    errors = {"400": "bad input (the message names the field and the problem)", "401": "missing or wrong token",
              "413": "request body too large", "429": "a server limit (named in the message)",
              "504": "the deadline passed; the search was stopped"}
    lines = _LINES if name == "solve" else {}
    return {"post": {
        "operationId": name, "summary": summary,
        "parameters": [{"name": "timeout", "in": "query", "required": False,
                        "description": "seconds this call may take (at most the server's limit)",
                        "schema": {"type": "number", "exclusiveMinimum": 0}}],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": required, "additionalProperties": True}}, **lines}},
        "responses": {"200": {"description": "the answer object" + (" (JSON lines: the answer lines)" if lines else ""),
                              "content": {"application/json": {"schema": {"type": "object"}}, **lines}},
                      **{code: {**_ERROR, "description": text} for code, text in errors.items()}},
    }}


def openapi() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "preferans-dd JSON API", "version": __version__,
                 "description": "Exact double-dummy analysis for Preferans. Field names are the command "
                                "line's options (dashes as underscores)."},
        "paths": {f"/api/v1/{name}": _operation(name, summary, required)
                  for name, (summary, required) in _CALLS.items()},
        "components": {
            "schemas": {"Error": {"type": "object", "required": ["error"],
                                  "properties": {"error": {"type": "string"}}}},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
