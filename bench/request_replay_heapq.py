#!/usr/bin/env python3
"""The request replay's model (engine/des/serving/request_replay.hpp) in plain Python with heapq: the
peer of bench_request_replay (docs/performance.md, "Request replay"). Same rates, lengths, router
(least active), FIFO slots, prefill, attained-service decode and max_wait drops; its own random
numbers (Python's Mersenne Twister), so its figures agree with the C++ replay's in distribution,
not bit for bit.

usage: request_replay_heapq.py [SECONDS] [RATE] [REPLICAS]     (default 600 s, 1,000/s, 400)
"""
import heapq
import math
import random
import resource
import sys
import time
from collections import deque

SLOTS = 64
DECODE = [80.0 / (1.0 + n / 32.0) for n in range(1, SLOTS + 1)]
PREFILL = [0.0002 * (1.0 + n / 64.0) for n in range(1, SLOTS + 1)]
MAX_WAIT_S = 60.0


class Replica:
    __slots__ = ("active", "attained", "at", "prefill", "decode", "queue", "version")

    def __init__(self):
        self.active, self.attained, self.at, self.version = 0, 0.0, 0.0, 0
        self.prefill, self.decode, self.queue = [], [], deque()


def replay(seconds, rate, replicas):
    rng = random.Random(2026)
    reps = [Replica() for _ in range(replicas)]
    events = []  # (time, replica, version): lazily invalidated
    requests = {}
    served = dropped = arrived = 0
    ttfts = []
    next_id = 0

    def advance(r, now):
        if r.active:
            r.attained += DECODE[r.active - 1] * (now - r.at)
        r.at = now

    def schedule(i):
        r = reps[i]
        r.version += 1
        t = r.prefill[0][0] if r.prefill else math.inf
        if r.decode:
            t = min(t, r.at + max(0.0, r.decode[0][0] - r.attained) / DECODE[r.active - 1])
        if t < math.inf:
            heapq.heappush(events, (t, i, r.version))

    def admit(r, rid, now):
        advance(r, now)
        r.active += 1
        req = requests[rid]
        req[3] = now
        heapq.heappush(r.prefill, (now + req[1] * PREFILL[r.active - 1], rid))

    t = rng.expovariate(rate)
    while True:
        if events and (t >= seconds or events[0][0] <= t):
            now, i, version = heapq.heappop(events)
            r = reps[i]
            if version != r.version:
                continue
            advance(r, now)
            if r.prefill and r.prefill[0][0] <= now:
                _, rid = heapq.heappop(r.prefill)
                req = requests[rid]
                ttfts.append(now - req[0])
                heapq.heappush(r.decode, (r.attained + req[2], rid))
            else:
                _, rid = heapq.heappop(r.decode)
                r.active -= 1
                del requests[rid]
                served += 1
                while r.queue and now - requests[r.queue[0]][0] > MAX_WAIT_S:
                    del requests[r.queue.popleft()]
                    dropped += 1
                if r.queue:
                    admit(r, r.queue.popleft(), now)
            schedule(i)
            continue
        if t >= seconds:
            break
        arrived += 1
        rid, next_id = next_id, next_id + 1
        requests[rid] = [t, rng.lognormvariate(math.log(1500.0), 1.0), rng.lognormvariate(math.log(300.0), 0.8), 0.0]
        i = min(range(replicas), key=lambda k: (reps[k].active + len(reps[k].queue), k))
        r = reps[i]
        if r.active < SLOTS and not r.queue:
            admit(r, rid, t)
        else:
            r.queue.append(rid)
        schedule(i)
        t += rng.expovariate(rate)
    ttfts.sort()
    return arrived, served, dropped, ttfts[len(ttfts) // 2], ttfts[int(len(ttfts) * 0.99)]


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 600.0
    rate = float(sys.argv[2]) if len(sys.argv) > 2 else 1000.0
    replicas = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    start = time.process_time()
    arrived, served, dropped, p50, p99 = replay(seconds, rate, replicas)
    cpu = time.process_time() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"python heapq: {seconds:.0f} s at {rate:g} requests/s on {replicas} replicas: {arrived} requests "
          f"({served} served, {dropped} dropped) in {cpu:.2f} CPU-s: {arrived / cpu / 1e6:.3f} M requests per "
          f"core-second; peak RSS {rss:.1f} MiB; TTFT p50 {p50:.3f} s, p99 {p99:.3f} s")


if __name__ == "__main__":
    main()
