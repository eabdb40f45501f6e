"""Every route of the web app, each with a request for it: the walks that
ask every route as every role (owners, the languages) share it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.routing import APIRoute
    from starlette.routing import Mount, Route

#: A value for each body field a route requires, by the field's name (a
#: route that requires another fails the walk, which names it).
FIELDS: dict[str, Any] = {
    "hand": "AS KS QS JS TS",
    "hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"],
    "action": "start",
    "name": "Mallory",
    "text": "hello",
    "paytable": "jacks-or-better-9-6",
}


def route_requests(
    app: FastAPI, ids: Mapping[str, str], static: Sequence[str] = ("app.css",)
) -> Iterator[tuple[str, str, Any]]:
    """Every route of ``app``, every method: (method, path, body), the
    path's parameters from ``ids``, a mounted folder by its ``static`` files."""
    schema = app.openapi()
    for route in app.routes:
        if isinstance(route, Mount):
            for name in static:
                yield "GET", f"{route.path}/{name}", None
            continue
        assert isinstance(route, Route) and route.methods, route
        path = route.path_format.format(**{name: ids[name] for name in route.param_convertors})
        for method in sorted(route.methods - {"HEAD"}):
            yield method, path, _body(schema, route, method)


def _body(schema: dict[str, Any], route: Route, method: str) -> Any:
    if not isinstance(route, APIRoute) or route.body_field is None:
        return None
    spec = schema["paths"][route.path_format][method.lower()]["requestBody"]["content"]["application/json"]["schema"]
    ref = next(s["$ref"] for s in [spec, *spec.get("anyOf", [])] if "$ref" in s)
    required = schema["components"]["schemas"][ref.rsplit("/", 1)[1]].get("required", [])
    missing = [name for name in required if name not in FIELDS]
    assert not missing, f"{method} {route.path_format} requires {missing}: add a value to FIELDS"
    return {name: FIELDS[name] for name in required}
