"""A local http server on 127.0.0.1 (http.server in a thread) that serves price feeds, good and
hostile, for the price update's tests."""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GOOD_CSV = (b"part,amount,currency,condition,date,source\n"
            b"gpu-nvidia-rtx-3090-fe,690,USD,used,2026-11-02,eBay sold listings\n"
            b"gpu-gigabyte-rtx-3090-turbo,999.5,USD,new,2026-11-10,a shop's export\n")


def feeds() -> dict:
    return {
        "/good.csv": (200, GOOD_CSV),
        "/good.json": (200, b'{"prices": [{"part_id": "gpu-nvidia-rtx-3090-fe", "amount": 700, "currency": "EUR", '
                            b'"condition": "used", "date": "2026-11-01", "source": "lab sheet"}]}'),
        "/bad-date.csv": (200, GOOD_CSV + b"gpu-nvidia-rtx-3090-fe,650,USD,used,2024-02-30,impossible day\n"),
        "/future.csv": (200, GOOD_CSV + b"gpu-nvidia-rtx-3090-fe,650,USD,used,2999-12-31,the future\n"),
        "/currency.csv": (200, GOOD_CSV + b"gpu-nvidia-rtx-3090-fe,650,XYZ,used,2026-11-01,unknown currency\n"),
        "/huge.csv": (200, b"part,amount,currency\n" + b"gpu-nvidia-rtx-3090-fe,1,USD\n" * 250_000),
        "/deep.json": (200, b"[" * 100_000 + b"]" * 100_000),
        "/missing.csv": (404, b"not here"),
    }


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):  # quiet
        pass

    def do_GET(self):  # noqa: N802
        if self.path == "/slow.csv":  # a byte at a time, for ever (until the client gives up)
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.end_headers()
            try:
                for _ in range(600):
                    self.wfile.write(b"p")
                    self.wfile.flush()
                    time.sleep(0.1)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        code, body = feeds().get(self.path, (404, b"no such feed"))
        self.send_response(code)
        self.send_header("Content-Type", "text/csv")
        if self.path != "/huge.csv":  # the huge one says no length: the cap must count what arrives
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


@contextmanager
def feed_server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
