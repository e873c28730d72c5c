"""The Worker's HTTP API, for what a session does not carry (the graded simulation of an episode, a group of forks)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Dict

from .errors import ServerUnreachableError, refusal


def get_json(server: str, path: str, api_key: str) -> Dict[str, Any]:
    """GET ``server + path`` with the key; an HTTP error raises the exception of its status."""
    return _send(server, urllib.request.Request(server + path, headers={"Authorization": f"Bearer {api_key}"}))


def post_json(server: str, path: str, api_key: str, body: Dict[str, Any]) -> Dict[str, Any]:
    """POST ``body`` as JSON to ``server + path`` with the key; an HTTP error raises the exception of its status."""
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    return _send(server, urllib.request.Request(server + path, data=json.dumps(body).encode(), headers=headers, method="POST"))


def _send(server: str, request: urllib.request.Request) -> Dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            answer: Dict[str, Any] = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as error:
        raise refusal(server, error.code, _said(error)) from None
    except urllib.error.URLError as error:
        raise ServerUnreachableError(f"cannot reach {server}: {error.reason}", server) from error


def _said(error: urllib.error.HTTPError) -> str:
    """The server's ``{"error": {"message"}}`` (which names the field a request got wrong), else the status's reason."""
    try:
        return str(json.loads(error.read())["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return str(error.reason)
