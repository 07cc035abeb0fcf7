"""A small thread-safe LRU bounded in size and in count: the rendered sheets (companion/pdf/cache.py)
and the rendered results of a stored version (companion/views/results.py) are kept in one each, per
process, so that a page read again and again is not drawn again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sized


class LRU:
    """Values with a length (bytes, text); the least recently read go first when either bound is passed."""

    def __init__(self, max_size: int, max_items: int):
        self.max_size = max_size
        self.max_items = max_items
        self._items: OrderedDict[Hashable, Sized] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable):
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Sized) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = value
            self._size += len(value)
            while self._items and (self._size > self.max_size or len(self._items) > self.max_items):
                _, old = self._items.popitem(last=False)
                self._size -= len(old)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0

    def __len__(self) -> int:
        return len(self._items)
