#!/usr/bin/env python3
"""Holds `tally infer --concurrency` against TensorRT-LLM's offline max-throughput rows.

The performance-overview tables of TensorRT-LLM 0.14 (in-flight batching, `trtllm-bench
throughput`, every request sent at once) give no batch size: trtllm-bench builds each engine with
a maximum batch size and a per-step token budget of its own choosing. That choice is a published
rule, so this script applies it to every row and asks Tally for the steady state at that
concurrency. It is a check, not a case set: the rows do not state the concurrency, so they are not
in docs/cases/serving and not in the accuracy table.

trtllm-bench's rule (NVIDIA/TensorRT-LLM tensorrt_llm/bench/build/tuning.py, calc_engine_setting
and finetune_setting):
  KV bytes a token   2 x layers x max(tp, kv_heads) x head_dim x bytes(KV)
  KV memory          (GPUs x device memory - parameters x bytes(weights)) x 0.95
  requests that fit  KV memory / (KV bytes a token x (input + output))
  max batch size     that count, at most 4096, over pp, rounded up: to 32 (at least 64) below 256,
                     to 128 below 1024, else to 256
  max tokens a step  max batch size x (1 + input / output), at most 32768, rounded up: to 256 (at
                     least 2048) below 4096, to 512 below 8192, else to 1024
Assumed here: the runtime keeps min(max batch size, requests that fit) requests in flight, every
prompt chunked into the steps (`max_batched_tokens` = the step budget); device memory is the
catalog's, in GiB as trtllm-bench counts it.

Usage: scripts/trtllm-bench-check.py [TALLY] [REFERENCE.json]
Prints one line per row and the mean errors by GPU, model, tp and precision.
"""
import collections
import json
import math
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TALLY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/app/tally")
REFERENCE = (sys.argv[2] if len(sys.argv) > 2 else
             os.path.join(ROOT, "../shared/reference/published-serving-visible.json"))

# The rows' GPU names, longest first so that "A100-PCIE" is not read as an SXM part.
GPUS = [("A100-PCIE", "a100-pcie-80gb"), ("A100-SXM", "a100-80gb"), ("H100", "h100-sxm"),
        ("H200", "h200"), ("L40S", "l40s")]
DTYPE = {"FP8": "fp8_e4m3", "FP16": "fp16", "BF16": "bf16"}
BYTES = {"fp8_e4m3": 1.0, "fp16": 2.0, "bf16": 2.0}


def gpu_id(text):
    for prefix, part in GPUS:
        if text.startswith(prefix):
            return part
    return None


def round_up(x, step):
    return step * math.ceil(x / step)


def engine_setting(params, model, tp, pp, isl, osl, weight, kv, device_gib):
    """trtllm-bench's max batch size and max tokens a step (tuning.py), and the requests that fit."""
    kv_gib_per_token = (2 * model["layers"] * max(tp, model["kv_heads"]) * model["head_dim"] *
                        BYTES[kv] / 2**30)
    available = device_gib * tp * pp - params * BYTES[weight] / 2**30
    fit = available * 0.95 / (kv_gib_per_token * (isl + osl))
    raw_bs = min(fit, 4096) / pp
    raw_tokens = min(raw_bs * (1 + isl / osl), 32768)
    if raw_bs < 256:
        batch = max(64, round_up(raw_bs, 32))
    elif raw_bs < 1024:
        batch = round_up(raw_bs, 128)
    else:
        batch = round_up(raw_bs, 256)
    if raw_tokens < 4096:
        tokens = max(2048, round_up(raw_tokens, 256))
    elif raw_tokens < 8192:
        tokens = round_up(raw_tokens, 512)
    else:
        tokens = round_up(raw_tokens, 1024)
    return batch, tokens, fit


def tally(spec, *args):
    out = subprocess.run([TALLY, "infer", "-", "--json", *args], input=json.dumps(spec),
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return json.loads(out.stdout)


def main():
    catalog = json.load(open(os.path.join(ROOT, "resources/hardware/catalog.json")))["hardware"]
    memory = {p["id"]: p["memory_bytes"] for p in catalog}
    rows = json.load(open(REFERENCE))["rows"]
    results, skipped = [], collections.Counter()
    for r in rows:
        w, m, prec = r["workload"], r["model"], r["precision"]
        if w["batch_size"] is not None or w["concurrency"] is not None:
            continue  # stated: those are docs/cases/serving's
        part = gpu_id(r["hardware"]["gpu"])
        weight, kv = DTYPE.get(prec["weights"] or ""), DTYPE.get(prec["kv_cache"] or "")
        if part is None or weight is None or kv is None or not m.get("ffn_hidden"):
            skipped[f"{r['engine_version']}: part, precision or model not stated in full"] += 1
            continue
        tp, pp = r["parallelism"]["tp"], r["parallelism"]["pp"]
        isl, osl = w["input_len"], w["output_len"]
        spec = {"name": r["id"],
                "model": {"kind": "transformer", "name": m["name"], "layers": m["layers"],
                          "hidden": m["hidden"], "heads": m["heads"], "kv_heads": m["kv_heads"],
                          "head_dim": m["head_dim"], "vocab": m["vocab"],
                          "ffn_hidden": m["ffn_hidden"], "ffn": "swiglu"},
                "cluster": {"gpu": part, "gpus": tp * pp},
                "inference": {"engine": "tensorrt_llm", "prompt_tokens": isl,
                              "output_tokens": osl, "tp": tp, "pp": pp, "weight_dtype": weight,
                              "kv_dtype": kv}}
        params = tally(spec)["params"]
        batch, tokens, fit = engine_setting(params, m, tp, pp, isl, osl, weight, kv,
                                            memory[part] / 2**30)
        concurrency = max(1, min(batch, math.floor(fit)))
        spec["inference"]["max_batched_tokens"] = tokens
        predicted = tally(spec, "--concurrency", str(concurrency))["continuous"]["tokens_per_s"]
        measured = None
        for x in r["measured"]:
            if x["metric"] == "output_throughput_total":
                measured = x["value"]
            elif x["metric"] == "output_throughput_per_gpu":
                measured = x["value"] * tp * pp
        if measured is None:
            skipped["no output throughput"] += 1
            continue
        error = predicted / measured - 1.0
        key = (part, m["name"], tp, prec["weights"])
        results.append((key, isl, osl, concurrency, tokens, measured, predicted, error))
        print(f"{r['id']:60s} C {concurrency:5d} budget {tokens:6d} measured {measured:9.0f} "
              f"predicted {predicted:9.0f} {error:+7.1%}")
    print()
    groups = collections.defaultdict(list)
    for row in results:
        groups[row[0]].append(row[-1])
    print("| GPU | model | tp | precision | rows | mean abs. error | mean signed |")
    print("|---|---|---|---|---|---|---|")
    for (part, name, tp, weights), errors in sorted(groups.items()):
        print(f"| {part} | {name} | {tp} | {weights} | {len(errors)} | "
              f"{statistics.mean(abs(e) for e in errors):.1%} | {statistics.mean(errors):+.1%} |")
    errors = [row[-1] for row in results]
    if errors:
        print(f"| all | | | | {len(errors)} | {statistics.mean(abs(e) for e in errors):.1%} | "
              f"{statistics.mean(errors):+.1%} |")
    for why, n in skipped.items():
        print(f"skipped {n}: {why}")


if __name__ == "__main__":
    main()
