"""A naive pure-Python exact baseline for docs/benchmarks.md (not part of volley).

n shots hitting on 3+, then D6+3 against armour 6: a natural 1 never damages, equal or
over does 1, beating by 2 or more is a critical for 2. The total damage distribution is
built by convolving the per-shot distribution n times with dicts of Fractions-free
floats, the way a straightforward exact-dice library does.
"""
import sys
import timeit


def per_shot():
    p_hit = 4 / 6
    dmg = {0: 0.0, 1: 0.0, 2: 0.0}
    for roll in range(1, 7):
        if roll == 1:
            d = 0
        else:
            margin = roll + 3 - 6
            d = 2 if margin >= 2 else (1 if margin >= 0 else 0)
        dmg[d] += 1 / 6
    out = {k: p_hit * v for k, v in dmg.items()}
    out[0] += 1 - p_hit
    return out


def convolve(a, b):
    out = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def total(n):
    shot = per_shot()
    acc = {0: 1.0}
    for _ in range(n):
        acc = convolve(acc, shot)
    return acc


if __name__ == "__main__":
    for n in (int(a) for a in sys.argv[1:] or ["20", "400", "2000"]):
        reps = 50 if n <= 20 else 3
        t = min(timeit.repeat(lambda: total(n), number=reps, repeat=3)) / reps
        d = total(n)
        print(f"n={n}: {t * 1e3:.3f} ms  (sum {sum(d.values()):.15f})")
