"""The Worker's HTTP API, for what a session does not carry (the graded simulation of an episode)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Dict

from .errors import ServerUnreachableError, refusal


def get_json(server: str, path: str, api_key: str) -> Dict[str, Any]:
    """GET ``server + path`` with the key; an HTTP error raises the exception of its status."""
    request = urllib.request.Request(server + path, headers={"Authorization": f"Bearer {api_key}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            answer: Dict[str, Any] = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as error:
        raise refusal(server, error.code, error.reason) from None
    except urllib.error.URLError as error:
        raise ServerUnreachableError(f"cannot reach {server}: {error.reason}", server) from error
