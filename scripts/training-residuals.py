#!/usr/bin/env python3
"""What the training cases leave unexplained, in time per layer and micro-batch.

The accuracy table (docs/planner.md) gives each case's error as a ratio of throughputs. This
script turns it into time: the measured step is the predicted one times (1 + error) (error =
predicted / measured throughput - 1, or measured / predicted step), and the miss is spread over
the passes a GPU makes through its layers in a step:

  residual per layer and micro-batch   (measured step - predicted step) / (layers a GPU holds x
                                        micro-batches a step)
  residual per token and layer         that, over the tokens of a micro-batch

A fixed cost (host work, a synchronisation per layer) leaves the first about constant across
models and micro-batch sizes; a rate that is wrong (GEMMs slower than their measured rate) leaves
the second about constant, or growing with the model's width. It is a diagnosis, not a fit:
nothing here feeds back into the model.

Usage: scripts/training-residuals.py [TALLY] [CASES_DIR] [ACCURACY_JSON]
(defaults: build/release/app/tally, docs/cases, resources/cases/accuracy.json, which
tests/tst_case_accuracy regenerates).
"""
import collections
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TALLY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/app/tally")
CASES = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs/cases")
ACCURACY = (sys.argv[3] if len(sys.argv) > 3 else
            os.path.join(ROOT, "resources/cases/accuracy.json"))


def plan(path):
    out = subprocess.run([TALLY, "plan", "--json", path], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def family(row):
    return (row["engine"], row["generation"], "MoE" if row["moe"] else "dense", row["precision"])


def main():
    rows = []
    for row in json.load(open(ACCURACY))["cases"]:
        path = os.path.join(CASES, row["file"])
        case = json.load(open(path))
        result = plan(path)
        parallel, performance = result["parallel"], result["performance"]
        # Layers on the busiest GPU: the middle stages' share (uneven stages put fewer on the
        # first and the last), at least one.
        layers = case["model"].get("layers", 1) / parallel["pp"]
        passes = layers * performance["microbatches"]
        tokens = parallel["micro_batch"] * case["data"]["seq_len"]
        step = performance["step_s"]
        residual = step * row["error"] / passes
        rows.append((family(row), row["file"], row["error"], case["model"].get("hidden", 0),
                     tokens, residual, residual / tokens))

    print("| case | error | hidden | tokens a micro-batch | residual a layer and micro-batch "
          "(ms) | a token and layer (us) |")
    print("|---|---|---|---|---|---|")
    for fam, name, error, hidden, tokens, per_pass, per_token in rows:
        print(f"| {name} | {100 * error:+.1f}% | {hidden} | {tokens} | {per_pass * 1e3:+.2f} | "
              f"{per_token * 1e6:+.3f} |")

    groups = collections.defaultdict(list)
    for fam, name, error, hidden, tokens, per_pass, per_token in rows:
        groups[fam].append((per_pass, per_token))
    print()
    print("| engine | GPU | model | precision | cases | median a layer and micro-batch (ms) | "
          "range (ms) | median a token and layer (us) | range (us) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for fam in sorted(groups):
        per_pass = [p for p, _ in groups[fam]]
        per_token = [t for _, t in groups[fam]]
        print(f"| {' | '.join(fam)} | {len(per_pass)} | "
              f"{statistics.median(per_pass) * 1e3:+.2f} | "
              f"{min(per_pass) * 1e3:+.2f} to {max(per_pass) * 1e3:+.2f} | "
              f"{statistics.median(per_token) * 1e6:+.3f} | "
              f"{min(per_token) * 1e6:+.3f} to {max(per_token) * 1e6:+.3f} |")


if __name__ == "__main__":
    main()
