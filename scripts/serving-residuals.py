#!/usr/bin/env python3
"""What the serving cases leave unexplained, in time per engine execution.

The accuracy table (docs/serving.md) gives each case's error as a ratio. A ratio mixes two kinds
of miss: a rate that is wrong (a kernel slower than its bound) grows with the work, a fixed cost
that is missing (host work between engine executions, a synchronisation) does not. This script
separates them for the static-batch cases by turning each miss into time per engine execution:

  throughput case   (batch x output / measured - batch x output / predicted) / output
                    -- a static batch runs one prefill and output - 1 decode steps, `output`
                    engine executions in all; the cases state whole-deployment tokens/s
  TTFT case         measured - predicted, one execution (a prompt and its first token)

and printing them beside the predicted decode step. A residual that stays put while the step
grows several-fold, across parts and batch sizes, is a fixed cost per execution; one that grows
with the step is a rate. It is a diagnosis, not a fit: nothing here feeds back into the model.

Usage: scripts/serving-residuals.py [--what-if-host-s S] [TALLY] [CASES_DIR]
Prints one line per case and the median residual by engine release, part and GPU count. With
--what-if-host-s it also plans every case (the set-apart one too) with inference.host_step_s = S
and prints the mean absolute errors and the counts within 15% with and without it: how much a
fixed cost of that size would weigh, not a setting to adopt (S read off these cases is a fit).
"""
import collections
import glob
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = sys.argv[1:]
WHAT_IF_HOST_S = None
if ARGS[:1] == ["--what-if-host-s"]:
    WHAT_IF_HOST_S = float(ARGS[1])
    ARGS = ARGS[2:]
TALLY = ARGS[0] if len(ARGS) > 0 else os.path.join(ROOT, "build/release/app/tally")
CASES = ARGS[1] if len(ARGS) > 1 else os.path.join(ROOT, "docs/cases/serving")


def plan(path, host_step_s=None):
    if host_step_s is None:
        out = subprocess.run([TALLY, "infer", "--json", path], capture_output=True, text=True,
                             check=True)
    else:
        case = json.load(open(path))
        case["inference"]["host_step_s"] = host_step_s
        out = subprocess.run([TALLY, "infer", "--json", "-"], input=json.dumps(case),
                             capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def what_if(paths, host_step_s):
    """Mean absolute error and figures within 15%, as planned and with the host time stated."""
    errors = collections.defaultdict(list)
    for path in paths:
        case = json.load(open(path))
        if case["inference"].get("concurrency"):
            continue  # the static batches only, as the residuals above
        measured = case.get("measured", {})
        for key, stated in (("as planned", None), ("stated", host_step_s)):
            result = plan(path, stated)
            if measured.get("output_tokens_per_s"):
                errors[("output tokens/s", key)].append(
                    result["tokens_per_s"] / measured["output_tokens_per_s"] - 1.0)
            if measured.get("ttft_s"):
                errors[("TTFT", key)].append(result["prefill_s"] / measured["ttft_s"] - 1.0)
    print()
    print(f"What if every case stated inference.host_step_s = {host_step_s * 1e3:g} ms "
          "(every static batch, the set-apart one included):")
    print("| metric | figures | mean abs error as planned | with it | within 15% as planned | "
          "with it |")
    print("|---|---|---|---|---|---|")
    for metric in ("output tokens/s", "TTFT"):
        now, then = errors[(metric, "as planned")], errors[(metric, "stated")]
        if not now:
            continue
        print(f"| {metric} | {len(now)} | {100 * statistics.mean(map(abs, now)):.1f}% | "
              f"{100 * statistics.mean(map(abs, then)):.1f}% | "
              f"{sum(abs(e) <= 0.15 for e in now)} | {sum(abs(e) <= 0.15 for e in then)} |")


def family(case):
    # "TensorRT-LLM 0.9.0: Llama-2-7B on 1 H100, ..." -> ("TensorRT-LLM 0.9.0", "H100", 1)
    release, rest = case["name"].split(": ", 1)
    on = rest.split(" on ", 1)[1].split(",", 1)[0].split()
    return release, on[1], int(on[0])


def main():
    rows = []
    for path in sorted(glob.glob(os.path.join(CASES, "*.json"))):
        case = json.load(open(path))
        measured = case.get("measured", {})
        inference = case["inference"]
        if inference.get("concurrency"):
            continue  # continuous batching: no fixed count of executions
        result = plan(path)
        release, gpu, gpus = family(case)
        batch, output = inference["batch"], inference["output_tokens"]
        if measured.get("output_tokens_per_s"):
            t_measured = batch * output / measured["output_tokens_per_s"]
            t_predicted = batch * output / result["tokens_per_s"]
            residual_s = (t_measured - t_predicted) / output
            kind = "tokens/s"
        elif measured.get("ttft_s"):
            residual_s = measured["ttft_s"] - result["prefill_s"]
            kind = "TTFT"
        else:
            continue
        rows.append((release, gpu, gpus, kind, case["name"], residual_s,
                     result["decode_step_s"], result["prefill_s"]))

    print("| case | metric | residual per execution (ms) | predicted decode step (ms) | "
          "predicted prefill (ms) |")
    print("|---|---|---|---|---|")
    for release, gpu, gpus, kind, name, residual, step, prefill in rows:
        print(f"| {name} | {kind} | {residual * 1e3:+.2f} | {step * 1e3:.2f} | "
              f"{prefill * 1e3:.2f} |")

    groups = collections.defaultdict(list)
    for release, gpu, gpus, kind, name, residual, step, prefill in rows:
        groups[(release, gpu, "1 GPU" if gpus == 1 else "2+ GPUs", kind)].append(
            (residual, step))
    print()
    print("| release | part | GPUs | metric | cases | median residual (ms) | range (ms) | "
          "predicted steps (ms) |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(groups):
        residuals = [r for r, _ in groups[key]]
        steps = [s for _, s in groups[key]]
        print(f"| {' | '.join(key)} | {len(residuals)} | "
              f"{statistics.median(residuals) * 1e3:+.2f} | "
              f"{min(residuals) * 1e3:+.2f} to {max(residuals) * 1e3:+.2f} | "
              f"{min(steps) * 1e3:.1f} to {max(steps) * 1e3:.1f} |")

    if WHAT_IF_HOST_S is not None:
        what_if(sorted(glob.glob(os.path.join(CASES, "*.json"))), WHAT_IF_HOST_S)


if __name__ == "__main__":
    main()
