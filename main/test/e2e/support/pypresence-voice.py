"""A voice overlay written the way pypresence talks (issue 29 tests): the same framing
(struct "<II" op and length, JSON), handshake {"v": 1, "client_id"}, and payloads shaped as
pypresence's Payload builds them (nonce "{:.20f}" of the time, "args" dicts, select_voice_channel
with channel_id only, register_event's SUBSCRIBE with its args). Prints every reply and event as
one JSON line; "ready" once subscribed; stops when the socket closes or after 30 s.

Usage: python3 pypresence-voice.py SOCKET CLIENT_ID ACCESS_TOKEN CHANNEL_ID
"""
import json
import socket
import struct
import sys
import time


def payload(cmd, args, evt=None):
    body = {"cmd": cmd, "args": args, "nonce": "{:.20f}".format(time.time())}
    if evt is not None:
        body["evt"] = evt
    return body


def send(sock, op, body):
    text = json.dumps(body).encode("utf-8")
    sock.sendall(struct.pack("<II", op, len(text)) + text)


def read_exact(sock, size):
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError()
        data += chunk
    return data


def read(sock):
    _op, length = struct.unpack("<II", read_exact(sock, 8))
    return json.loads(read_exact(sock, length).decode("utf-8"))


def say(value):
    print(json.dumps(value), flush=True)


def main():
    path, client_id, token, channel_id = sys.argv[1:5]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    send(sock, 0, {"v": 1, "client_id": client_id})
    say(read(sock))
    for body in (
        payload("AUTHENTICATE", {"access_token": token}),
        payload("SELECT_VOICE_CHANNEL", {"channel_id": str(channel_id)}),
        payload("GET_SELECTED_VOICE_CHANNEL", {}),
        payload("GET_VOICE_SETTINGS", {}),
        payload("SUBSCRIBE", {"channel_id": channel_id}, "SPEAKING_START"),
        payload("SUBSCRIBE", {"channel_id": channel_id}, "SPEAKING_STOP"),
        payload("SUBSCRIBE", {"channel_id": channel_id}, "VOICE_STATE_CREATE"),
    ):
        send(sock, 1, body)
        say(read(sock))
    say({"ready": True})
    sock.settimeout(30)
    try:
        while True:
            say(read(sock))
    except (EOFError, socket.timeout, OSError):
        pass


main()
