#!/usr/bin/env python3
"""Writes docs/cases/serving/*.json from the published TensorRT-LLM rows that state a batch.

Reads ../shared/reference/published-serving-visible.json (TensorRT-LLM performance-overview
tables, several releases); keeps the rows with a runtime batch size (static batching:
gptSessionBenchmark), and writes one spec per row: the model's dimensions as the row gives them,
the GPU, tp, precision, lengths, batch, the engine (tensorrt_llm) and the measured figure with
its source. Assumptions where the source is silent go into the description. Nothing here is
tuned: the spec says what the source says.

Usage: scripts/import-serving-cases.py REFERENCE.json OUT_DIR
"""
import json
import os
import re
import sys

GPUS = {
    "H100": "h100-sxm",
    "H200": "h200",
    "A100": "a100-80gb",
    "L40S": "l40s",
}
# Widths the rows leave out, from the models' own configurations.
FFN = {
    "GPT-J-6B": (16384, "gelu", "GPT-J config: n_inner null, i.e. 4 x n_embd (EleutherAI/gpt-j-6b config.json)"),
    "Falcon-180B": (59392, "gelu", "Falcon: 4 x hidden GELU MLP (tiiuae/falcon-180B config)"),
}
DTYPE = {"FP8": "fp8_e4m3", "FP16": "fp16", "BF16": "bf16"}


def decode_attention(version, heads, kv_heads, head_dim):
    """The generation-phase attention kernel the release ran, as its source states it.

    TensorRT-LLM decodes with XQA, which loads each KV head once for its group of query heads,
    where XQA applies, else with the masked multi-head attention kernel, a thread block per query
    head and sequence (decoderMaskedMultiheadAttentionLaunch.h). XQA came in release 0.8 (the XQA
    blog; NVIDIA/TensorRT-LLM issue 1240); in 0.9 it takes 8 or 1 query heads per KV head and
    head sizes 128 and 256 only (decoderXQARunner.h, shouldUse). Returns the spec value and the
    reason, or None where the two read the same bytes (one query head per KV head).
    """
    group = heads // kv_heads
    if group == 1:
        return None
    release = tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", version).groups())
    if release < (0, 8):
        return ("per_query_head",
                f"decode attention: the masked MHA kernel, a thread block per query head ({group} "
                f"query heads per KV head; XQA came in release 0.8)")
    if group != 8 or head_dim not in (128, 256):
        return ("per_query_head",
                f"decode attention: the masked MHA kernel, a thread block per query head (XQA in "
                f"{version} takes 8 query heads per KV head and head size 128 or 256; this model "
                f"has {group} and {head_dim})")
    return None


def gpu_id(text):
    for key, value in GPUS.items():
        if text.startswith(key):
            return value
    raise SystemExit(f"unknown GPU {text!r}")


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main():
    ref, out = sys.argv[1], sys.argv[2]
    rows = json.load(open(ref))["rows"]
    written = 0
    for r in rows:
        w = r["workload"]
        if w["batch_size"] is None:
            continue
        m = r["model"]
        name = m["name"].split(" (")[0]
        assumptions = []
        model = {
            "kind": "transformer",
            "name": name,
            "layers": m["layers"],
            "hidden": m["hidden"],
            "heads": m["heads"],
            "kv_heads": m["kv_heads"],
            "head_dim": m["head_dim"],
            "vocab": m["vocab"],
        }
        if name in FFN:
            ffn, act, why = FFN[name]
            model["ffn_hidden"] = ffn
            model["ffn"] = act
            assumptions.append(f"ffn_hidden {ffn} ({why})")
        else:
            model["ffn_hidden"] = m["ffn_hidden"]
            model["ffn"] = "swiglu"
        if m.get("moe"):
            model["moe"] = {"experts": m["moe"]["num_experts"],
                            "active_experts": m["moe"]["experts_per_token"]}
        prec = r["precision"]
        batch = w["batch_size"]
        gpus = r["hardware"]["gpu_count"]
        tp = r["parallelism"]["tp"]
        pp = r["parallelism"]["pp"]
        spec = {
            "name": f"TensorRT-LLM {r['engine_version']}: {name} on {gpus} {r['hardware']['gpu'].split(' ')[0]}, "
                    f"batch {batch}, {w['input_len']}/{w['output_len']}",
            "model": model,
            "cluster": {"gpu": gpu_id(r["hardware"]["gpu"]), "gpus": gpus},
            "inference": {
                "engine": "tensorrt_llm",
                "batch": batch,
                "prompt_tokens": w["input_len"],
                "output_tokens": w["output_len"],
                "tp": tp,
                "pp": pp,
                "weight_dtype": DTYPE[prec["weights"]],
                "kv_dtype": DTYPE[prec["kv_cache"]],
                # gptSessionBenchmark runs the whole batch's context phase in one step.
                "max_batched_tokens": batch * w["input_len"],
            },
        }
        kernel = decode_attention(r["engine_version"], m["heads"], m["kv_heads"], m["head_dim"])
        if kernel:
            spec["inference"]["decode_attention"] = kernel[0]
            assumptions.append(kernel[1])
        measured = {}
        for x in r["measured"]:
            if x["metric"] == "output_throughput_per_gpu":
                measured["output_tokens_per_s"] = x["value"] * gpus
            elif x["metric"] == "output_throughput_total":
                measured["output_tokens_per_s"] = x["value"]
            elif x["metric"] == "ttft":
                measured["ttft_s"] = x["value"] / 1000.0
        src = r["source"]
        measured["source"] = (f"{src['title']}, table '{src['table']}' ({src['repo']}, {src['path']} "
                              f"at {src['commit']}); as published: "
                              + ", ".join(f"{x['metric']} {x['as_published']} {x['unit']}" for x in r["measured"]))
        spec["measured"] = measured
        desc = [f"{r['benchmark_mode']}.", r["notes"], f"Model dimensions: {m['dims_source']}."]
        if r.get("doubts"):
            desc.append(f"Doubts: {r['doubts']}")
        if r.get("not_stated"):
            desc.append("Not stated by the source: " + ", ".join(r["not_stated"]) + ".")
        if assumptions:
            desc.append("Assumed: " + "; ".join(assumptions) + ".")
        desc.append(f"GPU variant: {r['hardware']['gpu']} taken as {spec['cluster']['gpu']}.")
        spec["description"] = " ".join(desc)
        path = os.path.join(out, slug(r["id"]) + ".json")
        with open(path + ".tmp", "w") as fh:
            json.dump(spec, fh, indent=2)
            fh.write("\n")
        os.replace(path + ".tmp", path)
        written += 1
    print(f"{written} cases written to {out}")


if __name__ == "__main__":
    main()
