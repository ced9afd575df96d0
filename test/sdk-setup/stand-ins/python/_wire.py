"""What the Python stand-ins share: one HTTP exchange with the headers in the order `requests`
sends them (its Session's defaults first, the call's own after), written with http.client. Not a
part of any SDK: both use `requests`, which is not installed here."""

import base64
import http.client
import json
import urllib.parse

# requests 2.32's default headers, in its order (requests/utils.py default_headers).
REQUESTS_DEFAULTS = [
    ("User-Agent", "python-requests/2.32.3"),
    ("Accept-Encoding", "gzip, deflate"),
    ("Accept", "*/*"),
    ("Connection", "keep-alive"),
]


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def send(method, url, headers, body, auth):
    """`headers`: the call's own; like requests, a name already among the defaults keeps its
    place and takes the call's spelling and value. Content-Length, then Authorization, last."""
    merged = list(REQUESTS_DEFAULTS)
    for name, value in headers:
        for i, (known, _) in enumerate(merged):
            if known.lower() == name.lower():
                merged[i] = (name, value)
                break
        else:
            merged.append((name, value))
    data = body.encode() if body is not None else None
    if data is not None:
        merged.append(("Content-Length", str(len(data))))
    merged.append(("Authorization", basic(*auth)))
    target = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    conn.putrequest(method, target.path + (f"?{target.query}" if target.query else ""), skip_accept_encoding=True)
    for name, value in merged:
        conn.putheader(name, value)
    conn.endheaders(data)
    answer = conn.getresponse()
    status, text = answer.status, answer.read().decode()
    conn.close()
    return status, text


def parse(text):
    return json.loads(text)
