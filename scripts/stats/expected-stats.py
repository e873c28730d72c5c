"""Expected figures of tau2-edge's error bars and paired comparisons, computed independently with numpy/scipy.

Run once: `python3 scripts/stats/expected-stats.py`; its output is written down in
test/core/metrics/error-bars.test.ts, paired-comparison.test.ts and student-t.test.ts.
"""
import json
from math import comb

import numpy as np
from scipy import stats

# Each run: task id -> rewards of its evaluated trials.
RUN = {
    "t1": [1.0, 1.0, 1.0, 1.0],
    "t2": [0.0, 1.0, 0.0, 1.0],
    "t3": [0.0, 0.0, 0.0, 0.0],
    "t4": [1.0, 0.0, 1.0, 1.0],
    "t5": [0.5, 1.0, 0.0, 0.25],
}
UNEVEN = {"t1": [1.0, 0.0, 1.0], "t2": [0.0], "t3": [1.0, 1.0], "t4": [0.0, 0.0, 1.0, 1.0]}
A = {"t1": [1, 0, 1, 1], "t2": [0, 0, 0, 0], "t3": [1, 1, 1, 1], "t4": [0, 1, 0, 0], "t5": [1, 1, 0, 1], "t6": [0, 0, 1, 0], "t7": [1, 1, 1, 1], "t8": [0, 0, 0, 0]}
B = {"t1": [1, 1, 1, 1], "t2": [1, 1, 1, 1], "t3": [1, 1, 1, 1], "t4": [1, 1, 0, 1], "t5": [1, 1, 1, 1], "t6": [0, 1, 1, 0], "t7": [0, 0, 0, 0], "t8": [0, 1, 0, 0], "t9": [1]}
# Noisy trials, a small but steady difference: more trials per task would resolve it.
A2 = {f"t{i}": [1, 0, 1, 0] for i in range(1, 7)}
B2 = {"t1": [1, 1, 1, 0], "t2": [1, 0, 1, 1], "t3": [1, 1, 0, 1], "t4": [0, 1, 1, 1], "t5": [1, 1, 1, 0], "t6": [1, 0, 1, 0]}
Z975 = stats.norm.ppf(0.975)
Z80 = stats.norm.ppf(0.8)


def error_bars(run):
    tasks = list(run.values())
    r = np.concatenate([np.array(t, dtype=float) for t in tasks])
    n, mean = len(r), r.mean()
    se = np.sqrt(sum(np.sum(np.array(t) - mean) ** 2 for t in tasks)) / n
    between = sum(len(t) * (np.mean(t) - mean) ** 2 for t in tasks) / n
    within = sum(np.sum((np.array(t) - np.mean(t)) ** 2) for t in tasks) / n
    assert abs(between + within - r.var()) < 1e-12
    ks = []
    for k in range(1, max(len(t) for t in tasks) + 1):
        est = np.array([comb(int(sum(x == 1.0 for x in t)), k) / comb(len(t), k) for t in tasks if len(t) >= k])
        kse = est.std(ddof=1) / np.sqrt(len(est)) if len(est) > 1 else None
        ks.append({"k": k, "value": est.mean(), "se": kse, "tasks": len(est)})
    return {"mean": mean, "se": se, "ci": [mean - Z975 * se, mean + Z975 * se], "between": between, "within": within, "pass_hat_ks": ks}


def paired(a, b):
    shared = [t for t in a if t in b]
    am = np.array([np.mean(a[t]) for t in shared])
    bm = np.array([np.mean(b[t]) for t in shared])
    d = bm - am
    s = len(d)
    se = d.std(ddof=1) / np.sqrt(s)
    half = stats.t.ppf(0.975, s - 1) * se
    test = stats.ttest_rel(bm, am)
    within = np.mean([np.var(a[t], ddof=1) + np.var(b[t], ddof=1) for t in shared])
    explained = np.mean([np.var(a[t], ddof=1) / len(a[t]) + np.var(b[t], ddof=1) / len(b[t]) for t in shared])
    between = max(0.0, d.var(ddof=1) - explained)
    allowed = s * (d.mean() / (Z975 + Z80)) ** 2 - between
    return {
        "difference": d.mean(), "se": se, "ci": [d.mean() - half, d.mean() + half],
        "t": test.statistic, "p_value": test.pvalue, "mdd": (Z975 + Z80) * se,
        "trials_needed": int(np.ceil(within / allowed)) if allowed > 0 else None,
    }


T_TABLE = [
    {"df": df, "p": p, "quantile": stats.t.ppf(p, df)}
    for df in [1, 2, 3, 4, 5, 7, 10, 19, 29, 49, 99, 499, 2284] for p in [0.975, 0.9, 0.6]
]
CDF_TABLE = [{"df": df, "t": t, "two_sided_p": 2 * stats.t.sf(abs(t), df)} for df in [1, 3, 9, 30, 200] for t in [0.1, 1.0, 2.5, -4.0]]

print(json.dumps({
    "z975": Z975, "z80": Z80,
    "run": error_bars(RUN), "uneven": error_bars(UNEVEN),
    "paired": paired(A, B), "paired_reverse": paired(B, A), "paired_noisy": paired(A2, B2),
    "t_quantiles": T_TABLE, "t_two_sided_p": CDF_TABLE,
}, indent=1, default=float))
