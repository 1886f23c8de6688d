"""Counters behind GET /__fake/stats.

"connections" counts only TCP connections that served at least one Drupal
(non-/__fake/) request since the last reset, so a test can ask for stats on a
separate connection without disturbing the count.
"""
import threading


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.epoch = 0
        self.connections = 0
        self.requests = 0
        self.open_connections = 0

    def reset(self):
        with self.lock:
            self.epoch += 1
            self.connections = 0
            self.requests = 0

    def opened(self):
        with self.lock:
            self.open_connections += 1

    def closed(self):
        with self.lock:
            self.open_connections -= 1

    def drupal_request(self, conn):
        with self.lock:
            self.requests += 1
            if conn.counted_epoch != self.epoch:
                conn.counted_epoch = self.epoch
                self.connections += 1

    def snapshot(self):
        with self.lock:
            return {'connections': self.connections, 'requests': self.requests,
                    'open_connections': self.open_connections}
