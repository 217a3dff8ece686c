#!/usr/bin/env python3
"""Writes docs/cases/<id>.json from the published training runs in
../shared/reference/published-training-visible.json (Megatron-Bridge / NeMo performance summaries,
MosaicML llm-foundry's benchmark tables).

Every row is mapped by the same rules (below, stated again in each case's description); nothing
is set per case. Rows the source marks doubtful, or without a precision, are skipped.

    python3 scripts/make_published_cases.py [REFERENCE.json]
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "..", "shared", "reference", "published-training-visible.json")

# Architectures: the catalog's presets where it has one (resources/models), else the model's
# published configuration.
PRESETS = {
    "Llama 3 / 3.1 8B": "llama-3-8b",
    "Llama 3 / 3.1 70B": "llama-3-70b",
    "Llama 3.1 405B": "llama-3-405b",
    "DeepSeek-V3 671B (37B active)": "deepseek-v3",
}
QWEN3 = {
    # Qwen/Qwen3-30B-A3B and Qwen3-235B-A22B config.json: head_dim 128, 128 experts, 8 active,
    # no shared expert, RMSNorm, untied embeddings, vocabulary 151936.
    "Qwen3-30B-A3B": dict(layers=48, hidden=2048, heads=32, kv_heads=4, head_dim=128,
                          ffn_hidden=6144, expert_ffn=768),
    "Qwen3-235B-A22B": dict(layers=94, hidden=4096, heads=64, kv_heads=4, head_dim=128,
                            ffn_hidden=12288, expert_ffn=1536),
}
MPT = {
    # MosaicML MPT (llm-foundry scripts/train/yamls/pretrain/mpt-*.yaml): expansion ratio 4,
    # GELU, LayerNorm, no biases, ALiBi, tied embeddings, vocabulary 50368.
    "MPT-1b": (24, 2048, 16), "MPT-3b": (32, 2560, 20), "MPT-7b": (32, 4096, 32),
    "MPT-13b": (40, 5120, 40), "MPT-30b": (48, 7168, 56), "MPT-70b": (80, 8192, 64),
}
GPUS = {"H100": "h100-sxm", "B200": "b200", "GB200": "gb200", "A100 80GB": "a100-80gb",
        "A100 40GB": "a100-40gb"}


def gpu_id(text):
    for key in ("GB200", "B200", "H100", "A100 80GB", "A100 40GB"):
        if key in text:
            return GPUS[key]
    raise ValueError(text)


def model_of(m):
    name = m["name"]
    if name in PRESETS:
        with open(os.path.join(ROOT, "resources", "models", PRESETS[name] + ".json")) as f:
            preset = json.load(f)
        model = dict(preset["model"])
        model["name"] = preset["name"]
        return model, "architecture: resources/models/%s.json (%s)" % (PRESETS[name],
                                                                        preset["source"][:120])
    if name in QWEN3:
        q = QWEN3[name]
        return {"kind": "transformer", "name": name, "layers": q["layers"], "hidden": q["hidden"],
                "heads": q["heads"], "kv_heads": q["kv_heads"], "head_dim": q["head_dim"],
                "ffn_hidden": q["ffn_hidden"], "ffn": "swiglu", "vocab": 151936,
                "norm": "rmsnorm",
                "moe": {"experts": 128, "active_experts": 8,
                        "expert_ffn_hidden": q["expert_ffn"]}}, \
            "architecture: Qwen/%s config.json" % name
    if name == "GPT-OSS 120B":
        return {"kind": "transformer", "name": name, "layers": 36, "hidden": 2880, "heads": 64,
                "kv_heads": 8, "head_dim": 64, "ffn_hidden": 2880, "ffn": "swiglu",
                "vocab": 201088, "norm": "rmsnorm",
                "moe": {"experts": 128, "active_experts": 4}}, \
            ("architecture: openai/gpt-oss-120b config.json (36 layers, hidden 2880, 64 heads of "
             "64, 8 KV heads, 128 experts of width 2880, 4 active); its alternating 128-token "
             "sliding-window layers are timed as full causal attention (Tally has no sliding "
             "window), which overstates their attention work")
    if name in MPT:
        layers, hidden, heads = MPT[name]
        return {"kind": "transformer", "name": name, "layers": layers, "hidden": hidden,
                "heads": heads, "ffn_hidden": 4 * hidden, "ffn": "gelu", "vocab": 50368,
                "tied_embeddings": True, "norm": "layernorm"}, \
            ("architecture: llm-foundry scripts/train/yamls/pretrain/%s.yaml (expansion ratio 4, "
             "GELU, LayerNorm, no biases, tied embeddings, vocabulary 50368); MPT's ALiBi has "
             "no rotary embedding but Tally charges RoPE's traffic to every model without "
             "learned positions" % name.lower())
    raise ValueError(name)


def case_of(row):
    p = row["parallel"]
    measured = row["measured"]
    precision = (row["precision"] or "").lower()
    is_foundry = row["id"].startswith("llmfoundry")
    model, arch = model_of(row["model"])
    gpus = row["hardware"]["num_gpus"]
    tp = p["tp"] or 1
    pp = p["pp"] or 1
    cp = p["cp"] or 1
    ep = p["ep"] or 1
    training = {"tp": tp, "pp": pp, "flash_attention": True}
    assumptions = []
    if cp > 1:
        training["context_parallel"] = cp
    if ep > 1:
        training["expert_parallel"] = ep
    if p["etp"]:
        training["expert_tensor_parallel"] = p["etp"]
    elif ep > 1 and tp > 1:
        # Megatron-Core's MoE parallel folding: the experts regroup as etp x ep x edp over the
        # tp x cp x dp ranks; the performance recipes run the experts without tensor parallelism.
        training["expert_tensor_parallel"] = 1
        assumptions.append("expert tensor parallelism 1 (the table gives none; tp x ep would not "
                           "divide the stage's ranks)")
    if p["vp"] and p["vp"] > 1:
        training["interleave"] = p["vp"]
    if is_foundry:
        training["engine"] = "fsdp"
        training["zero"] = 3
        # Attention: submit_benchmarks.py's --attn_impl defaults to "triton" in every version
        # that published these tables (mosaicml/llm-foundry scripts/train/benchmarking, June 2023
        # to January 2024; "flash" only from April 2024), and sweep.sh never sets it: MPT's
        # attn_impl "triton" is llmfoundry/models/layers/flash_attn_triton.py, HazyResearch's
        # 2022 Triton port of the first FlashAttention.
        training["attention_kernel"] = "flash1"
        # FSDP prefetch: neither the MPT yamls' fsdp_config nor submit_benchmarks.py sets
        # backward_prefetch or forward_prefetch, so Composer's defaults hold (composer
        # set_fsdp_default(): backward_prefetch "BACKWARD_POST", forward_prefetch False).
        training["fsdp_backward_prefetch"] = "post"
        # Optimizer: the MPT yamls' optimizer is Composer's decoupled_adamw, whose step runs
        # each elementwise operation as its own pass over a tensor
        # (composer/optim/decoupled_weight_decay.py), as torch's foreach AdamW does.
        training["optimizer_impl"] = "foreach"
        assumptions.append("engine fsdp: Composer's PyTorch FSDP FULL_SHARD, eager (ZeRO-3 over "
                           "all GPUs); attention through llm-foundry's attn_impl 'triton' (the "
                           "default of scripts/train/benchmarking/submit_benchmarks.py, which "
                           "sweep.sh does not change): HazyResearch's 2022 Triton port of the "
                           "first FlashAttention, timed as attention_kernel flash1")
        assumptions.append("FSDP backward prefetch BACKWARD_POST (fsdp_backward_prefetch post): "
                           "Composer's default (set_fsdp_default()), which the MPT yamls and "
                           "submit_benchmarks.py leave unset")
        assumptions.append("optimizer: the MPT yamls' decoupled_adamw, Composer's DecoupledAdamW, "
                           "a pass over the parameters per elementwise operation "
                           "(optimizer_impl foreach), after gradient clipping by norm")
        if "pure" in precision:
            training.update({"param_dtype": "bf16", "grad_dtype": "bf16", "master_dtype": "none",
                             "optimizer_state_dtype": "bf16"})
            assumptions.append("precision PURE: the model cast to bf16, so parameters, "
                               "gradients and AdamW state in bf16 and no fp32 master copy")
        else:
            training.update({"param_dtype": "bf16", "grad_dtype": "fp32", "master_dtype": "fp32"})
            assumptions.append("precision DEFAULT (amp): fp32 sharded parameters (the master "
                               "copy) gathered in bf16, gradients reduced in fp32, AdamW")
        if "fp8" in precision:
            training.update({"compute_dtype": "fp8", "fp8_recipe": "delayed"})
            assumptions.append("amp_fp8: Transformer Engine linear layers with delayed scaling "
                               "(its default recipe)")
        rec = row["recompute"] or ""
        if rec.startswith("full"):
            training["recompute"] = "full"
    else:
        training["engine"] = "megatron"
        fsdp = p["fsdp"] or 0
        if fsdp > 0:
            training["zero"] = 3
            assumptions.append("FSDP column %d: Megatron-FSDP, ZeRO-3 over the data-parallel "
                               "ranks" % fsdp)
        else:
            training["zero"] = 1
            assumptions.append("distributed optimizer (ZeRO-1), as Megatron-Bridge's "
                               "performance recipes set")
        if tp > 1:
            training["sequence_parallel"] = True
            assumptions.append("sequence parallelism with tp > 1 (the recipes' setting)")
        name = row["model"]["name"].lower()
        release_tag = "v0.2.0" if row["id"].startswith("mbridge-25.11") else "v0.4.0"
        # Settings the performance recipes of the release state beside the table's layout
        # (NVIDIA-NeMo/Megatron-Bridge scripts/performance/configs at the release's tag; 25.11
        # ships Megatron-Bridge v0.2.0, 26.04 v0.4.0).
        if tp > 1 and ("llama" in name or "gpt-oss" in name) and "nvfp4" not in precision:
            training["tp_comm_overlap"] = True
            assumptions.append("tensor-parallel communication overlap on: the Llama and GPT-OSS "
                               "recipes set CommOverlapConfig(tp_comm_overlap=tp > 1) except in "
                               "NVFP4 (Megatron-Bridge %s scripts/performance/configs/"
                               "llama*/llama3*_llm_pretrain.py)" % release_tag)
        # moe_a2a_overlap: on in the Qwen3 H100 recipes (235B in both releases, 30B in 25.11),
        # off in 26.04's Qwen3-30B H100 and in every DeepSeek-V3 recipe (Megatron-Bridge
        # scripts/performance/configs/qwen*/*workload_base_configs.py, deepseek/...).
        if "qwen3" in name and "H100" in row["id"] and (
                "235b" in name or row["id"].startswith("mbridge-25.11")):
            training["ep_comm_overlap"] = True
            assumptions.append("expert-parallel all-to-alls overlapped with another micro-"
                               "batch's compute: the recipe's moe_a2a_overlap = True (Megatron-"
                               "Bridge %s Qwen3 H100 workload config)" % release_tag)
        # The flex token dispatcher (HybridEP): every DeepSeek-V3 recipe of v0.4.0, the GB200
        # and GB300 ones of v0.2.0 (moe_flex_dispatcher_backend="hybridep", Megatron-Bridge
        # scripts/performance/configs/deepseek/*workload_base_configs.py); every Qwen3-30B-A3B
        # recipe of v0.4.0 and its GB200 Qwen3-235B-A22B ones (scripts/performance/configs/
        # qwen/qwen3_workload_base_configs.py; v0.2.0's Qwen3 recipes set none).
        gb = row["hardware"]["gpu"].upper().startswith(("GB200", "GB300"))
        flex_file = None
        if "deepseek" in name and (release_tag == "v0.4.0" or gb):
            flex_file = "deepseek/*workload_base_configs.py"
        elif "qwen3" in name and release_tag == "v0.4.0" and ("30b" in name or
                                                              ("235b" in name and gb)):
            flex_file = "qwen/qwen3_workload_base_configs.py"
        if flex_file:
            training["moe_dispatcher"] = "flex"
            assumptions.append("the flex token dispatcher: the recipe's moe_flex_dispatcher_"
                               "backend = \"hybridep\" (Megatron-Bridge %s scripts/performance/"
                               "configs/%s)" % (release_tag, flex_file))
        if ("70b" in name and row["hardware"]["gpu"].upper().startswith("GB200")
                and "fp8" in precision and "mx" not in precision and (p["fsdp"] or 0) > 0):
            training["activation_offload_layers"] = 40
            assumptions.append("activations of 40 layers offloaded to the Grace host: the "
                               "recipe's cpu_offloading_num_layers = 40 (Megatron-Bridge %s "
                               "scripts/performance/configs/llama*/"
                               "*workload_base_configs.py, LLAMA3_70B GB200 FP8_CS)" % release_tag)
        if "mx" in precision:
            training.update({"compute_dtype": "fp8", "fp8_recipe": "mxfp8"})
        elif "fp8" in precision:
            training.update({"compute_dtype": "fp8", "fp8_recipe": "current"})
            if precision == "fp8":
                assumptions.append("'FP8' read as current scaling (FP8-CS), the recipe the "
                                   "earlier tables name")
        if "8b" in name and "H100" in row["id"] and "fp8" in precision:
            training["recompute"] = "full"
            training["recompute_layers"] = 5
            assumptions.append("full recomputation of 5 of the 32 layers: the recipe's "
                               "recompute_num_layers = 5 (Megatron-Bridge %s scripts/performance/"
                               "configs/llama3/workload_base_configs.py, LLAMA3_8B H100 FP8_CS), "
                               "which scripts/performance/utils/helpers.py runs with "
                               "recompute_granularity full and recompute_method block"
                               % release_tag)
        else:
            assumptions.append("no activation recomputation (the table states none)")
        if model.get("moe"):
            assumptions.append("MoE routing balanced (moe_imbalance 1: the page's footnote says "
                               "the tokens were force-balanced among experts, drop-less)")
    if row["micro_batch"] is None:
        return None
    data = {"tokens": 1e12, "seq_len": row["seq_len"], "global_batch": row["global_batch"],
            "micro_batch": row["micro_batch"]}
    src = row["source"]
    source = "%s, %s (%s)" % (src["title"], src["table"], src.get("url") or src.get("path"))
    measured_block = {"tokens_per_s_per_gpu": measured["tokens_per_s_per_gpu"], "source": source}
    name = "%s: %s on %d %s" % ("llm-foundry" if is_foundry else "Megatron-Bridge",
                                row["model"]["name"], gpus, gpu_id(row["hardware"]["gpu"]))
    description = ("%s. Measured %s tokens/s per GPU (%s). Layout as published: tp %d, pp %d, "
                   "cp %d, ep %d%s, %d GPUs, sequence %d, global batch %d, micro-batch %d, "
                   "precision %s. Assumed: %s. %s. Generated by scripts/make_published_cases.py "
                   "from ../shared/reference/published-training-visible.json row %s." % (
                       source, measured["tokens_per_s_per_gpu"], row["metric_definition"][:200],
                       tp, pp, cp, ep, (", vp %d" % p["vp"]) if p["vp"] else "", gpus,
                       row["seq_len"], row["global_batch"], row["micro_batch"], row["precision"],
                       "; ".join(assumptions), arch, row["id"]))
    return {"name": name, "description": description, "model": model, "data": data,
            "cluster": {"gpu": gpu_id(row["hardware"]["gpu"]), "gpus": gpus, "mfu": "predicted"},
            "training": training, "measured": measured_block}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else REFERENCE
    with open(path) as f:
        rows = json.load(f)["rows"]
    out_dir = os.path.join(ROOT, "docs", "cases")
    written = 0
    for row in rows:
        if row["doubtful"] or not row["precision"] or row["precision"] == "None":
            continue
        case = case_of(row)
        if case is None:
            continue
        file = re.sub(r"[^a-z0-9.]+", "-", row["id"].lower()).strip("-") + ".json"
        with open(os.path.join(out_dir, file), "w") as f:
            json.dump(case, f, indent=2)
            f.write("\n")
        written += 1
    print("%d cases written to %s" % (written, out_dir))


if __name__ == "__main__":
    main()
