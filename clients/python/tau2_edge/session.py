"""One OpenEnv WebSocket session with a tau2-edge Worker (GET /openenv/ws).

Messages are OpenEnv's: the client sends ``{"type": "reset"|"step"|"state"|"close", "data": ...}``, the
server answers ``observation``, ``state`` or ``error`` (``{"message", "code", ...}``) in order.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

import websockets
import websockets.exceptions

from .errors import OpenEnvError, ServerUnreachableError, SessionError, refusal

Json = Dict[str, Any]


async def _connect(url: str, headers: Dict[str, str], open_timeout: float, max_size: int) -> Any:
    try:  # websockets >= 13: the asyncio client takes additional_headers
        from websockets.asyncio.client import connect
    except ImportError:  # websockets 10-12 (Debian's python3-websockets): the legacy client, extra_headers
        legacy = getattr(websockets, "connect")
        return await legacy(url, extra_headers=headers, open_timeout=open_timeout, max_size=max_size)
    return await connect(url, additional_headers=headers, open_timeout=open_timeout, max_size=max_size)


def ws_url(base_url: str) -> str:
    """The session URL of a Worker: http(s):// becomes ws(s)://, then /openenv/ws."""
    url = base_url.rstrip("/")
    if url.startswith("https://"):
        url = "wss://" + url[len("https://"):]
    elif url.startswith("http://"):
        url = "ws://" + url[len("http://"):]
    return url + "/openenv/ws"


def _handshake_status(error: Exception) -> Optional[int]:
    """The HTTP status a refused opening answered: ``InvalidStatus.response`` (websockets >= 13) or
    ``InvalidStatusCode.status_code`` (the legacy client)."""
    response = getattr(error, "response", None)
    status = getattr(response, "status_code", None) or getattr(error, "status_code", None)
    return int(status) if status is not None else None


def _handshake_reason(error: Exception) -> str:
    """The server's ``{"error": {"message"}}`` of a refused opening, where the client kept the body."""
    body = getattr(getattr(error, "response", None), "body", None)
    try:
        return str(json.loads(body)["error"]["message"]) if body else ""
    except (ValueError, KeyError, TypeError):
        return ""


class Session:
    """An open session: ``reset``/``step`` answer OpenEnv's result ``{"observation", "reward", "done"}``."""

    def __init__(self, socket: Any, server: str = "") -> None:
        self._socket = socket
        self.server = server

    @classmethod
    async def open(cls, base_url: str, api_key: str, open_timeout: float = 30, max_size: int = 16 * 2**20) -> "Session":
        """Opens a session; a refused key raises ``AuthenticationError``, no server ``ServerUnreachableError``."""
        server = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {api_key}"}
        try:
            socket = await _connect(ws_url(base_url), headers, open_timeout, max_size)
        except websockets.exceptions.InvalidHandshake as error:
            status = _handshake_status(error)
            if status is None:
                raise
            raise refusal(server, status, _handshake_reason(error)) from None
        except OSError as error:
            raise ServerUnreachableError(f"cannot reach {server}: {error}", server) from error
        return cls(socket, server)

    async def _ask(self, message: Json, expected: str) -> Json:
        await self._socket.send(json.dumps(message))
        answer = json.loads(await self._socket.recv())
        if answer.get("type") == "error":
            raise OpenEnvError.of(answer.get("data", {}), self.server)
        if answer.get("type") != expected:
            raise SessionError({"message": f"expected {expected}, got {answer.get('type')}", "code": "SESSION_ERROR"}, self.server)
        data: Json = answer["data"]
        return data

    async def reset(self, **data: Any) -> Json:
        return await self._ask({"type": "reset", "data": data}, "observation")

    async def step(self, data: Json) -> Json:
        return await self._ask({"type": "step", "data": data}, "observation")

    async def state(self) -> Json:
        return await self._ask({"type": "state"}, "state")

    async def close(self) -> None:
        try:
            await self._socket.send(json.dumps({"type": "close"}))
        finally:
            await self._socket.close()
