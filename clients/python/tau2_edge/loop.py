"""The event loop the synchronous classes run on: one per process, on a daemon thread of its own. A caller
waits for its coroutine from any thread, so a synchronous call works where the caller's own thread already
runs a loop (a Jupyter notebook, an async trainer), where ``run_until_complete`` would refuse."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Coroutine, List, Optional, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: Optional[asyncio.AbstractEventLoop] = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="tau2-edge", daemon=True).start()
        return _loop


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Runs ``coroutine`` on the background loop and waits for its result (or its exception)."""
    return asyncio.run_coroutine_threadsafe(coroutine, _background_loop()).result()


async def gather(*coroutines: Coroutine[Any, Any, T]) -> List[T]:
    """``asyncio.gather`` as a coroutine, so that it is called on the loop that runs it."""
    return list(await asyncio.gather(*coroutines))
