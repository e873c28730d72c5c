"""One OpenEnv WebSocket session with a tau2-edge Worker (GET /openenv/ws).

Messages are OpenEnv's: the client sends ``{"type": "reset"|"step"|"state"|"close", "data": ...}``, the
server answers ``observation``, ``state`` or ``error`` (``{"message", "code", ...}``) in order.
"""

import json

import websockets

try:  # websockets >= 13: the asyncio client takes additional_headers
    from websockets.asyncio.client import connect as _connect

    _HEADERS_ARG = "additional_headers"
except ImportError:  # websockets 10-12 (Debian's python3-websockets): the legacy client, extra_headers
    _connect = websockets.connect
    _HEADERS_ARG = "extra_headers"


class OpenEnvError(Exception):
    """An ``error`` message: ``code`` is OpenEnv's error code, ``data`` the whole error."""

    def __init__(self, data):
        super().__init__(f"{data.get('message')} (code: {data.get('code')})")
        self.code = data.get("code")
        self.data = data


def ws_url(base_url):
    """The session URL of a Worker: http(s):// becomes ws(s)://, then /openenv/ws."""
    url = base_url.rstrip("/")
    if url.startswith("https://"):
        url = "wss://" + url[len("https://"):]
    elif url.startswith("http://"):
        url = "ws://" + url[len("http://"):]
    return url + "/openenv/ws"


class Session:
    """An open session: ``reset``/``step`` answer OpenEnv's result ``{"observation", "reward", "done"}``."""

    def __init__(self, socket):
        self._socket = socket

    @classmethod
    async def open(cls, base_url, api_key, open_timeout=30, max_size=16 * 2**20):
        headers = {"Authorization": f"Bearer {api_key}"}
        socket = await _connect(ws_url(base_url), open_timeout=open_timeout, max_size=max_size, **{_HEADERS_ARG: headers})
        return cls(socket)

    async def _ask(self, message, expected):
        await self._socket.send(json.dumps(message))
        answer = json.loads(await self._socket.recv())
        if answer.get("type") == "error":
            raise OpenEnvError(answer.get("data", {}))
        if answer.get("type") != expected:
            raise OpenEnvError({"message": f"expected {expected}, got {answer.get('type')}", "code": "SESSION_ERROR"})
        return answer["data"]

    async def reset(self, **data):
        return await self._ask({"type": "reset", "data": data}, "observation")

    async def step(self, data):
        return await self._ask({"type": "step", "data": data}, "observation")

    async def state(self):
        return await self._ask({"type": "state"}, "state")

    async def close(self):
        try:
            await self._socket.send(json.dumps({"type": "close"}))
        finally:
            await self._socket.close()
