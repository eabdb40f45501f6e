"""``fivecard serve``'s own parts (:mod:`fivecard.web.serve`); the server
under load is tested in ``test_server.py``, its stop signals with the
command's in ``tests/cli/test_stop_signals.py``."""

from __future__ import annotations

import asyncio
import threading

from fivecard.web.friends_api import Broker
from fivecard.web.serve import end_streams


def test_a_stop_that_lands_while_the_broker_is_locked_still_ends_the_streams() -> None:
    # A stop signal's handler runs in the main thread between any two of its
    # steps: when that thread held the broker's lock (a stream starting or
    # looking for events), the server waited for the lock forever.
    broker = Broker()
    loop = asyncio.new_event_loop()
    try:

        async def listening() -> asyncio.Event:
            return broker.listen("table")

        stream = loop.run_until_complete(listening())

        closing_at_return: list[bool] = []

        def handler_with_the_lock_held() -> None:
            with broker._lock:
                end_streams(broker)
                closing_at_return.append(broker.closing)

        handler = threading.Thread(target=handler_with_the_lock_held, daemon=True)  # (daemon: a hang fails, not hangs)
        handler.start()
        handler.join(10)
        assert not handler.is_alive()  # it returned: it did not wait for the lock its thread held
        assert closing_at_return == [False]  # not closed yet then: the lock was held
        loop.run_until_complete(asyncio.wait_for(stream.wait(), 10))  # then the stream is told to end
        assert broker.closing
    finally:
        loop.close()
