#!/usr/bin/env python3
"""Writes docs/cases/<id>.json from the published training runs in
../shared/reference/published-training-visible.json (Megatron-Bridge / NeMo performance summaries,
MosaicML llm-foundry's benchmark tables) and, given a Megatron-Bridge checkout's docs, from every
pre-training row of its performance summary and archive (all releases).

Every row is mapped by the same rules (below, stated again in each case's description); nothing
is set per case. Rows the source marks doubtful, or without a precision, are skipped, as are rows
of models or recipes Tally cannot represent (mbridge_skip_reason()).

    python3 scripts/make_published_cases.py [REFERENCE.json] [--megatron-bridge DOCS_DIR COMMIT]
        [--llm-foundry README.md COMMIT]

DOCS_DIR holds performance-summary.md and performance-summary-archive.md (for example
`git --git-dir=... show COMMIT:docs/performance-summary.md`); COMMIT is recorded as the source.
README.md is llm-foundry's scripts/train/benchmarking/README.md, whose every table row becomes a
case the same way. A row of the tables that the reference file also lists is checked against it
and kept as the reference states it.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "..", "shared", "reference", "published-training-visible.json")

# Megatron-Core's --recompute-modules that training.recompute_modules models.
RECOMPUTE_MODULES = ("core_attn", "layernorm", "mla_up_proj", "moe_act", "mlp")

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
    # no shared expert, RMSNorm, untied embeddings, vocabulary 151936; QK-norm (transformers'
    # Qwen3MoeAttention: q_norm and k_norm, always).
    "Qwen3-30B-A3B": dict(layers=48, hidden=2048, heads=32, kv_heads=4, head_dim=128,
                          ffn_hidden=6144, expert_ffn=768),
    "Qwen3-235B-A22B": dict(layers=94, hidden=4096, heads=64, kv_heads=4, head_dim=128,
                            ffn_hidden=12288, expert_ffn=1536),
}
MPT = {
    # MosaicML MPT (llm-foundry scripts/train/yamls/pretrain/mpt-*.yaml): expansion ratio 4,
    # GELU, LayerNorm, no biases, ALiBi, tied embeddings, vocabulary 50368.
    "MPT-125m": (12, 768, 12), "MPT-350m": (24, 1024, 16), "MPT-760m": (24, 1536, 12),
    "MPT-1b": (24, 2048, 16), "MPT-3b": (32, 2560, 20), "MPT-7b": (32, 4096, 32),
    "MPT-13b": (40, 5120, 40), "MPT-30b": (48, 7168, 56), "MPT-70b": (80, 8192, 64),
}
GPUS = {"H100": "h100-sxm", "B200": "b200", "GB200": "gb200", "B300": "b300", "GB300": "gb300",
        "A100 80GB": "a100-80gb", "A100 40GB": "a100-40gb"}


def gpu_id(text):
    for key in ("GB300", "GB200", "B300", "B200", "H100", "A100 80GB", "A100 40GB"):
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
                "norm": "rmsnorm", "qk_norm": True,
                "moe": {"experts": 128, "active_experts": 8,
                        "expert_ffn_hidden": q["expert_ffn"]}}, \
            ("architecture: Qwen/%s config.json (and its attention's per-head query and key "
             "norms, Qwen3MoeAttention's q_norm and k_norm)" % name)
    if name == "GPT-OSS 120B":
        return {"kind": "transformer", "name": name, "layers": 36, "hidden": 2880, "heads": 64,
                "kv_heads": 8, "head_dim": 64, "ffn_hidden": 2880, "ffn": "swiglu",
                "vocab": 201088, "norm": "rmsnorm", "sliding_window": 128,
                "sliding_window_layers": 18,
                "moe": {"experts": 128, "active_experts": 4}}, \
            ("architecture: openai/gpt-oss-120b config.json (36 layers, hidden 2880, 64 heads of "
             "64, 8 KV heads, 128 experts of width 2880, 4 active, 18 of the layers attending "
             "through a 128-token sliding window); its attention sinks (a learned softmax "
             "offset per head) are not modelled")
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


# Megatron-Bridge's table names for the models above.
MBRIDGE_MODELS = {
    "LLAMA3_8B": "Llama 3 / 3.1 8B",
    "LLAMA3_70B": "Llama 3 / 3.1 70B",
    "LLAMA3.1_405B": "Llama 3.1 405B",
    "DeepSeekV3": "DeepSeek-V3 671B (37B active)",
    "DeepSeekV3 (w/o MTP)": "DeepSeek-V3 671B (37B active)",
    "DeepSeekV3 (w/ MTP)": "DeepSeek-V3 671B (37B active)",
    "GPT OSS 120B": "GPT-OSS 120B",
    "Qwen3_30B_a3B": "Qwen3-30B-A3B",
    "Qwen3_235B_a22B": "Qwen3-235B-A22B",
}
MBRIDGE_SYSTEMS = {"DGX-H100": "H100-SXM5-80GB (DGX H100)", "DGX-B200": "B200 (DGX B200)",
                   "DGX-B300": "B300 (DGX B300)",
                   "DGX-GB200": "GB200 (DGX GB200 / NVL72 rack)",
                   "DGX-GB300": "GB300 (DGX GB300 / NVL72 rack)"}
MBRIDGE_METRIC = ("'Tokens / sec / GPU' and 'Model TFLOP / sec / GPU' as printed. The page only "
                  "says 'Model floating-point operations per second per GPU'. MoE footnote: token "
                  "distribution force-balanced among experts, token-dropless.")


def mbridge_skip_reason(model, precision, footnotes):
    """Why a pre-training row of the tables is not made a case, or None."""
    if model.startswith("Nemotron"):
        return "hybrid Mamba-Transformer: Tally has no state-space layers"
    if model.startswith("Kimi"):
        return "trained with the Muon optimizer, which Tally does not model"
    if model.startswith("DeepSeekV4"):
        return "DeepSeek-V4's architecture is not in Tally"
    if "tokendrop" in model:
        return "token-dropping routing: the capacity factor the run used is not printed"
    if model not in MBRIDGE_MODELS and model.split(" (")[0] not in MBRIDGE_MODELS:
        return "model not mapped"
    if not precision:
        return "precision not stated (the 25.09 tables)"
    if "regression" in footnotes.lower():
        return "the page footnotes this row as a known performance regression"
    return None


def _num(text):
    text = text.strip()
    if text.lower() in ("n/a", "", "-"):
        return None
    return int(text.replace(",", ""))


def _split_alt(text):
    """'31508 (29789)' -> ('31508', '29789'); '1 (2)' -> ('1', '2'); '8' -> ('8', None)."""
    m = re.match(r"^\s*([^()]+?)\s*(?:\(([^()]*)\))?\s*$", text)
    return (m.group(1).strip(), m.group(2).strip() if m.group(2) else None) if m else (text, None)


def mbridge_rows(path, title, url, commit, skipped):
    """Every pre-training row of one Megatron-Bridge performance page, in the reference file's
    row format. Rows not made cases go to `skipped` with the reason."""
    rows = []
    release = section = None
    heading = None
    cols = None
    footnote_text = {}
    with open(path) as f:
        lines = [line.rstrip("\n") for line in f]
    for line in lines:
        m = re.match(r"^\[\^([^\]]+)\]:\s*(.*)", line)
        if m:
            footnote_text[m.group(1)] = m.group(2)
    for line in lines:
        m = re.match(r"^## (\S+) NeMo Container", line)
        if m:
            release = m.group(1)
            continue
        m = re.match(r"^### (.*)", line)
        if m:
            section = m.group(1).strip()
            continue
        m = re.match(r"^#### (Model|System): (.*)", line)
        if m:
            heading = (m.group(1), m.group(2).strip())
            cols = None
            continue
        if not line.startswith("|") or release is None:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("System", "Model"):
            cols = cells
            continue
        if set(cells[0]) <= set("-") or cols is None:
            continue
        if section != "Pre-Training Performance":
            continue
        cell = dict(zip(cols, cells))
        notes = " ".join(footnote_text.get(k, "") for k in re.findall(r"\[\^([^\]]+)\]", line))
        system = cell.get("System") or heading[1]
        model = (cell.get("Model") or heading[1]).strip()
        precision_text = cell.get("Precision")
        table = "%s NeMo Container / Pre-Training Performance / %s: %s" % (release, heading[0],
                                                                          heading[1])
        # A value in parentheses is a second run: another precision (25.11's 'FP8-CS (FP8-MX)')
        # or, in 25.09, another layout; each becomes its own row.
        variants = [0, 1] if _split_alt(cell["Tokens / sec / GPU"])[1] is not None else [0]
        for v in variants:
            def pick(col):
                main, alt = _split_alt(re.sub(r"\[\^[^\]]+\]", "", cell.get(col, "")))
                return alt if (v == 1 and alt is not None) else main
            precision = None
            if precision_text:
                precision = pick("Precision")
            # The reference file's ids: the precision cell as printed, or the parenthesised one.
            id_precision = (precision_text if v == 0 else precision) or "None"
            rid = "mbridge-%s-%s-%s-%s-%sgpu-gbs%s" % (
                release, system, model.replace(" ", "_"), id_precision.replace(" ", "_"),
                pick("#-GPUs"), pick("GBS"))
            reason = mbridge_skip_reason(model, precision, notes)
            if reason:
                skipped.append((rid, reason))
                continue
            gpus = _num(pick("#-GPUs"))
            tp, pp, cp = _num(pick("TP")) or 1, _num(pick("PP")) or 1, _num(pick("CP")) or 1
            mbs, gbs = _num(pick("MBS")), _num(pick("GBS"))
            dp = gpus // (tp * pp * cp)
            doubt = None
            ga = _num(pick("GA")) if "GA" in cell else None
            if ga is not None and ga * mbs * dp != gbs:
                doubt = ("GA column (%d) is inconsistent with GBS %d / (MBS %d x DP %d)"
                         % (ga, gbs, mbs, dp))
            fsdp = _num(pick("FSDP")) if "FSDP" in cell else None
            rows.append({
                "id": rid,
                "source": {"title": title, "table": table, "url": url,
                           "repo": "NVIDIA-NeMo/Megatron-Bridge",
                           "path": "docs/" + os.path.basename(path), "commit": commit},
                "model": {"name": MBRIDGE_MODELS.get(model, MBRIDGE_MODELS.get(
                    model.split(" (")[0]))},
                "table_model": model.split(" (")[0],
                "seq_len": _num(pick("Sequence Length")),
                "hardware": {"gpu": MBRIDGE_SYSTEMS[system], "num_gpus": gpus},
                "parallel": {"tp": tp, "pp": pp, "cp": cp, "vp": _num(pick("VP")),
                             "ep": _num(pick("EP")), "etp": None, "fsdp": fsdp},
                "global_batch": gbs, "micro_batch": mbs, "recompute": None,
                "precision": precision,
                "measured": {"tokens_per_s_per_gpu": _num(pick("Tokens / sec / GPU")),
                             "tflops_per_gpu": _num(pick("Model TFLOP / sec / GPU"))},
                "metric_definition": MBRIDGE_METRIC,
                "doubtful": doubt is not None, "doubt_reason": doubt, "release": release,
                "read_from": "the table of NVIDIA-NeMo/Megatron-Bridge docs/%s at %s" % (
                    os.path.basename(path), commit[:12]),
            })
    return rows


FOUNDRY_GPUS = {"h100_80gb": "H100 80GB", "a100_80gb": "A100 80GB", "a100_40gb": "A100 40GB"}
FOUNDRY_METRIC = ("'Throughput (T/s/GPU)' as printed; MFU = (6 n_params seq + attention) x seq/s / "
                  "(gpus x peak) per the README's MFU section.")


def foundry_rows(path, commit):
    """Every row of llm-foundry's scripts/train/benchmarking/README.md tables, in the reference
    file's row format."""
    rows = []
    table = None
    cols = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^## (.*)", line)
            if m:
                table = m.group(1).strip()
                cols = None
                continue
            if not line.startswith("|") or table is None:
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "Model":
                cols = cells
                continue
            if cols is None or set(cells[0]) <= set("-"):
                continue
            c = dict(zip(cols, cells))
            size, seq, gpus = c["Model"], int(c["SeqLen (T)"]), int(c["# GPUs"])
            gpu, prec, mode = c["GPU"], c["Precision"], c["MP Mode"]
            rid = "llmfoundry-%s-%s-mpt%s-s%d-%dgpu" % (gpu, prec, size, seq, gpus)
            sharding = c["Sharding Strategy"]
            rows.append({
                "id": rid,
                "source": {"title": "MosaicML llm-foundry MPT Training Benchmarks",
                           "table": table,
                           "url": "https://github.com/mosaicml/llm-foundry/blob/main/scripts/"
                                  "train/benchmarking/README.md",
                           "repo": "mosaicml/llm-foundry",
                           "path": "scripts/train/benchmarking/README.md", "commit": commit},
                "model": {"name": "MPT-" + size},
                "seq_len": seq,
                "hardware": {"gpu": FOUNDRY_GPUS[gpu], "num_gpus": gpus},
                "parallel": {"tp": 1, "pp": 1, "cp": 1, "vp": None, "ep": None, "etp": None,
                             "fsdp": gpus,
                             "zero_stage": "PyTorch FSDP %s" % sharding},
                "global_batch": int(c["GlobalBatchSize"]),
                "micro_batch": int(c["MicroBatchSize"]),
                "recompute": ("full activation checkpointing"
                              if c["Activation Checkpointing"] == "True" else None),
                "precision": "%s (FSDP mixed-precision mode %s)" % (prec, mode),
                "measured": {"tokens_per_s_per_gpu": int(c["Throughput (T/s/GPU)"]),
                             "tflops_per_gpu": float(c["Model TFLOP"])},
                "metric_definition": FOUNDRY_METRIC,
                "doubtful": c["Activation CPUOffload"] != "False",
                "doubt_reason": ("activation CPU offload" if c["Activation CPUOffload"] != "False"
                                 else None),
                "read_from": "the table of mosaicml/llm-foundry scripts/train/benchmarking/"
                             "README.md at %s" % commit[:12],
            })
    # Two runs of one model, length and GPU count differ in batch: the global batch tells apart.
    count = {}
    for r in rows:
        count[r["id"]] = count.get(r["id"], 0) + 1
    for r in rows:
        if count[r["id"]] > 1:
            r["id"] += "-gbs%d" % r["global_batch"]
    return rows


# Megatron-Bridge's performance recipes: what each release ran beside the table's layout
# (overlaps, token dispatcher, recomputation, activation offload), read from the configs of
# scripts/performance at each release's tag, with the lines that set each value.
RECIPES_PATH = os.path.join(ROOT, "scripts", "data", "megatron-bridge-recipes.json")
# The Megatron-Bridge version each NeMo container ships: 25.11, 26.02 and 26.04 as the docs'
# software-versions page states (0.2.0, 0.3.0, 0.4.0); the point releases and 26.06 / 26.08
# assumed to be the tag of the same number (0.5.0, 0.6.0).
RELEASE_TAGS = {"25.11": "v0.2.0", "26.02": "v0.3.0", "26.02.01": "v0.3.0", "26.04": "v0.4.0",
                "26.04.01": "v0.4.0", "26.06": "v0.5.0", "26.06.01": "v0.5.0", "26.08": "v0.6.0"}
TAG_ORDER = ["v0.2.0", "v0.3.0", "v0.4.0", "v0.5.0", "v0.6.0"]
# The Transformer Engine each NeMo container ships, as the docs' software-versions page
# (docs/releases/software-versions.md at 067f987df03b) states for 25.11, 26.02, 26.04 and 26.06;
# a point release is taken to ship its release's. The page lists no 26.08.
TE_VERSIONS = {"25.11": (2, 9), "26.02": (2, 12), "26.04": (2, 14), "26.06": (2, 16)}


def te_version(release):
    return TE_VERSIONS.get(".".join(release.split(".")[:2]))
_recipes = None


def _recipe_key(row):
    system = row["id"].split("-DGX-")[1].split("-")[0]
    model = row.get("table_model") or {v: k for k, v in MBRIDGE_MODELS.items()
                                         if "(" not in k}.get(row["model"]["name"])
    precision = row["precision"].upper().replace("-", "_")
    precision = {"FP8": "FP8_CS", "MXFP8": "FP8_MX"}.get(precision, precision)
    return model, system, precision


def _recipes_of(row):
    """Every release's recipes of the row's model, system and precision."""
    key = _recipe_key(row)
    return [r for r in _load_recipes() if (r["model"], r["system"], r["precision"]) == key]


def uninterleaved_unlike_recipes(row):
    """A table row that runs its pipeline without interleaving where every recipe of its model,
    system and precision, in every release, interleaves: the printed layout is doubtful."""
    p = row["parallel"]
    same = _recipes_of(row)
    return ((p["pp"] or 1) > 1 and (p["vp"] or 1) <= 1 and bool(same) and
            all((r["layout"]["vp"] or 1) > 1 for r in same))


def unpipelined_unlike_recipes(row):
    """A table row that runs without pipeline parallelism and without Megatron-FSDP where every
    recipe of its model, system and precision, in every release, pipelines: the printed layout
    is doubtful (the same test as uninterleaved_unlike_recipes(), one dimension up)."""
    p = row["parallel"]
    same = _recipes_of(row)
    return ((p["pp"] or 1) <= 1 and (p["fsdp"] or 0) == 0 and bool(same) and
            all((r["layout"]["pp"] or 1) > 1 for r in same))


def _load_recipes():
    global _recipes
    if _recipes is None:
        with open(RECIPES_PATH) as f:
            _recipes = json.load(f)["recipes"]
    return _recipes


def recipe_of(row):
    """The recipe that ran a Megatron-Bridge row: of the release's tag, the one whose layout is
    the table's (the default variant first); else the nearest tag with that layout; else the
    release's default variant. Returns (recipe, how it was chosen) or (None, None)."""
    release = row["id"].split("-")[1]
    tag = RELEASE_TAGS.get(release)
    p = row["parallel"]
    want = {"tp": p["tp"] or 1, "pp": p["pp"] or 1, "cp": p["cp"] or 1,
            "vp": p["vp"] if (p["vp"] or 1) > 1 else None, "ep": p["ep"] or 1,
            "mbs": row["micro_batch"], "gbs": row["global_batch"],
            "gpus": row["hardware"]["num_gpus"], "megatron_fsdp": (p["fsdp"] or 0) > 0}

    def layout(r):
        lay = r["layout"]
        return {"tp": lay["tp"] or 1, "pp": lay["pp"] or 1, "cp": lay["cp"] or 1,
                "vp": lay["vp"] if (lay["vp"] or 1) > 1 else None, "ep": lay["ep"] or 1,
                "mbs": lay["mbs"], "gbs": lay["gbs"], "gpus": lay["gpus"],
                "megatron_fsdp": bool(lay["megatron_fsdp"])}
    same = _recipes_of(row)
    if not same or tag is None:
        return None, None
    order = sorted(TAG_ORDER, key=lambda t: (abs(TAG_ORDER.index(t) - TAG_ORDER.index(tag)),
                                            TAG_ORDER.index(t) < TAG_ORDER.index(tag)))
    for t in order:
        hits = [r for r in same if r["tag"] == t and layout(r) == want]
        if hits:
            hits.sort(key=lambda r: not r["default"])
            how = ("its layout is the table's" if t == tag else
                   "the nearest release whose recipe has the table's layout")
            return hits[0], how
    defaults = [r for r in same if r["tag"] == tag and r["default"]]
    if defaults:
        return defaults[0], "the release's default variant; its layout differs from the table's"
    return None, None


# Megatron-Bridge's DeepSeek-V3 recipe (src/megatron/bridge/recipes/deepseek/deepseek_v3.py,
# the same in v0.2.0 to v0.6.0): "mtp_num_layers: Optional[int] = 1", and its pipeline layouts by
# (pp, vp), each stage's list of "embedding", "decoder" x n, and on the last
# ["mtp"] * mtp_num_layers + ["loss"]; virtual stage i runs on rank i mod pp. Here as the
# decoder layers of each virtual stage.
DEEPSEEK_V3_RECIPE = "src/megatron/bridge/recipes/deepseek/deepseek_v3.py"
DEEPSEEK_V3_LAYOUTS = {
    (4, 1): [16, 16, 16, 13],
    (8, 1): [8] * 7 + [5],
    (4, 2): [8] * 7 + [5],
    (16, 1): [4] * 15 + [1],
    (8, 2): [4] * 15 + [1],
    (4, 4): [4] * 15 + [1],
}


def deepseek_mtp_and_stages(row, model, training, assumptions):
    """DeepSeek-V3's multi-token prediction and its recipe's pipeline layout."""
    if "w/o_MTP" in row["id"]:
        # Only the 25.11 tables print "w/o MTP": a run with mtp_num_layers 0.
        model["mtp_layers"] = 0
        assumptions.append("no multi-token-prediction module (mtp_layers 0: the table's "
                           "'w/o MTP')")
        mtp = 0
    else:
        model["mtp_layers"] = 1
        mtp = 1
        assumptions.append("one multi-token-prediction module (mtp_layers 1: Megatron-Bridge's "
                           "DeepSeek-V3 recipe, %s, 'mtp_num_layers: Optional[int] = 1' in every "
                           "release; the table's 'w/ MTP' where it says so), on the last "
                           "pipeline stage" % DEEPSEEK_V3_RECIPE)
    pp = training["pp"]
    vp = training.get("interleave", 1)
    if pp <= 1:
        return
    chunks = DEEPSEEK_V3_LAYOUTS.get((pp, vp))
    if chunks is None:
        assumptions.append("pipeline layout: the recipe's layout_map has none for pp %d, vp %d; "
                           "Tally spreads the 61 layers over the stages itself (pipeline_"
                           "stages.h) with the MTP module%s on the last" % (
                               pp, vp, "" if mtp else " (none here)"))
        return
    per_rank = [sum(chunks[i] for i in range(r, len(chunks), pp)) for r in range(pp)]
    first, last = per_rank[0], per_rank[-1]
    middles = per_rank[1:-1]
    rest = 61 - first - last
    even = [rest // len(middles) + (1 if i < rest % len(middles) else 0)
            for i in range(len(middles))] if middles else []
    if middles != even:
        assumptions.append("pipeline layout: the recipe's layout_map for pp %d, vp %d puts %s "
                           "decoder layers on the ranks, which first_stage_layers and "
                           "last_stage_layers cannot express; Tally's own split assumed"
                           % (pp, vp, per_rank))
        return
    training["first_stage_layers"] = first
    training["last_stage_layers"] = last
    assumptions.append("pipeline layout of the recipe's layout_map for pp %d, vp %d (%s, "
                       "set_deepseek_v3_pipeline_model_parallel_layout / _deepseek_v3_common): "
                       "%d decoder layers on the first rank, %d on the last beside the MTP "
                       "module and the loss (first_stage_layers %d, last_stage_layers %d)"
                       % (pp, vp, DEEPSEEK_V3_RECIPE, first, last, first, last))


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
        # FULL_SHARD shards parameters, gradients and optimizer state (ZeRO-3); SHARD_GRAD_OP
        # gradients and optimizer state only, keeping whole parameters after the forward
        # (ZeRO-2; PyTorch FSDP ShardingStrategy docs).
        training["zero"] = 2 if "SHARD_GRAD_OP" in (p.get("zero_stage") or "") else 3
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
        assumptions.append("engine fsdp: Composer's PyTorch FSDP %s, eager (ZeRO-%d over "
                           "all GPUs); attention through llm-foundry's attn_impl 'triton' (the "
                           "default of scripts/train/benchmarking/submit_benchmarks.py, which "
                           "sweep.sh does not change): HazyResearch's 2022 Triton port of the "
                           "first FlashAttention, timed as attention_kernel flash1" % (
                           "SHARD_GRAD_OP" if training["zero"] == 2 else "FULL_SHARD",
                           training["zero"]))
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
        # The loss: every release's performance scripts set cross_entropy_fusion_impl "te" over
        # the provider's cross_entropy_loss_fusion True (scripts/performance/utils/helpers.py at
        # v0.2.0, overrides.py from v0.3.0; gpt_provider.py). Transformer Engine's
        # parallel_cross_entropy writes the gradient over the bf16 logits up to 2.17 and keeps an
        # fp32 gradient from 2.18 (its commit 01bbe3eea).
        release = row["id"].split("-")[1]
        te = te_version(release)
        if te is not None and te <= (2, 17):
            training["cross_entropy"] = "in_place"
            assumptions.append("the loss keeps the gradient over the bf16 logits "
                               "(cross_entropy in_place: the performance scripts' "
                               "cross_entropy_fusion_impl te, Transformer Engine %d.%d in the "
                               "%s container, which computes it in place up to 2.17)"
                               % (te[0], te[1], release))
        else:
            assumptions.append("the loss keeps an fp32 gradient per logit (cross_entropy fp32: "
                               "the software-versions page lists no Transformer Engine for "
                               "%s; from 2.18 its cross-entropy keeps fp32)" % release)
        recipe, how = recipe_of(row)
        if recipe is None:
            assumptions.append("no performance recipe of Megatron-Bridge found for this model, "
                               "system and precision: no overlap, the all-to-all dispatcher and "
                               "no recomputation assumed")
            recipe = {"tp_comm_overlap": False, "moe_a2a_overlap": False, "dispatcher": None,
                      "recompute": {}, "cpu_offloading_num_layers": 0}
        else:
            assumptions.append("settings of Megatron-Bridge %s's performance recipe %s (%s; "
                               "scripts/data/megatron-bridge-recipes.json cites its lines)"
                               % (recipe["tag"], recipe["config"], how))
        if tp > 1 and recipe["tp_comm_overlap"]:
            training["tp_comm_overlap"] = True
            assumptions.append("tensor-parallel communication overlap on (the recipe's "
                               "CommOverlapConfig, in effect with tp > 1 and sequence "
                               "parallelism)")
        if "deepseek" in row["model"]["name"].lower():
            deepseek_mtp_and_stages(row, model, training, assumptions)
        if model.get("moe") and recipe["moe_a2a_overlap"]:
            training["ep_comm_overlap"] = True
            assumptions.append("expert-parallel all-to-alls overlapped with another micro-"
                               "batch's compute (the recipe's moe_a2a_overlap = True)")
        if model.get("moe") and recipe["dispatcher"] == "flex":
            training["moe_dispatcher"] = "flex"
            assumptions.append("the flex token dispatcher (the recipe's moe_flex_dispatcher_"
                               "backend = \"%s\")" % recipe.get("flex_backend"))
        if recipe["cpu_offloading_num_layers"] and pp > 1:
            # Only where the recipe's layout is not the table's: Megatron-Core offloads
            # activations with one pipeline stage only.
            assumptions.append("the recipe's activation offload (%d layers) left out: it runs "
                               "with one pipeline stage, the table's run has %d"
                               % (recipe["cpu_offloading_num_layers"], pp))
        elif recipe["cpu_offloading_num_layers"]:
            training["activation_offload_layers"] = recipe["cpu_offloading_num_layers"]
            assumptions.append("activations of %d layers offloaded to the host (the recipe's "
                               "cpu_offloading_num_layers)" % recipe["cpu_offloading_num_layers"])
        if precision == "nvfp4":
            # bf16_with_nvfp4_mixed (src/megatron/bridge/training/mixed_precision.py): fp4
            # "e2m1", fp4_recipe "nvfp4", every linear layer (Megatron-Core's
            # first_last_layers_bf16 defaults to False).
            training["compute_dtype"] = "nvfp4"
            assumptions.append("NVFP4: Megatron-Bridge's bf16_with_nvfp4_mixed, Transformer "
                               "Engine's NVFP4BlockScaling recipe on every linear layer's three "
                               "GEMMs (none kept in bf16), attention, router and output layer "
                               "in bf16")
        elif "mx" in precision:
            training.update({"compute_dtype": "fp8", "fp8_recipe": "mxfp8"})
        elif "fp8" in precision:
            training.update({"compute_dtype": "fp8", "fp8_recipe": "current"})
            if precision == "fp8":
                assumptions.append("'FP8' read as current scaling (FP8-CS), the recipe the "
                                   "earlier tables name")
        rec = recipe["recompute"] or {}
        modules = rec.get("modules") or []
        if rec.get("granularity") == "full":
            training["recompute"] = "full"
            layers = rec.get("num_layers") or 0
            if rec.get("method") == "block" and layers:
                # --recompute-method block --recompute-num-layers N: the first N layers of each
                # (virtual) stage; uniform recomputes every layer in groups of N.
                training["recompute_layers"] = layers
                assumptions.append("full recomputation of %d layers of each stage (the recipe's "
                                   "recompute_granularity full, method block)" % layers)
            else:
                assumptions.append("full recomputation of every layer (the recipe's "
                                   "recompute_granularity full, method %s)" % rec.get("method"))
        elif rec.get("granularity") == "selective" and modules:
            # Megatron-Core's recompute modules Tally models (training.recompute_modules); any
            # other is said, and timed and stored as kept.
            known = [m for m in modules if m in RECOMPUTE_MODULES]
            other = [m for m in modules if m not in RECOMPUTE_MODULES]
            if known:
                training["recompute"] = "selective"
                training["recompute_modules"] = known
            assumptions.append(
                "selective recomputation of %s (the recipe's recompute_modules)%s" % (
                    ", ".join(modules),
                    ("; Tally does not model recomputing %s, which is timed and stored as kept"
                     % ", ".join(other)) if other else ""))
        else:
            assumptions.append("no activation recomputation (the recipe sets none)")
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
                   "from %s row %s." % (
                       source, measured["tokens_per_s_per_gpu"], row["metric_definition"][:200],
                       tp, pp, cp, ep, (", vp %d" % p["vp"]) if p["vp"] else "", gpus,
                       row["seq_len"], row["global_batch"], row["micro_batch"], row["precision"],
                       "; ".join(assumptions), arch,
                       row.get("read_from",
                               "../shared/reference/published-training-visible.json"),
                       row["id"]))
    return {"name": name, "description": description, "model": model, "data": data,
            "cluster": {"gpu": gpu_id(row["hardware"]["gpu"]), "gpus": gpus, "mfu": "predicted"},
            "training": training, "measured": measured_block}


def merge_table_rows(rows, table_rows):
    """Adds the table rows the reference does not list; where it does, the reference row stands
    and any disagreement with the table is printed."""
    known = {r["id"]: r for r in rows}
    for r in table_rows:
        ref = known.get(r["id"])
        if ref is None:
            rows.append(r)
            continue
        pairs = [("tokens_per_s_per_gpu", ref["measured"], r["measured"])]
        pairs += [(key, ref["parallel"], r["parallel"]) for key in ("tp", "pp", "cp", "ep")]
        for key, a, b in pairs:
            if (a[key] or 1) != (b[key] or 1):
                print("%s: reference %s %s, table %s" % (r["id"], key, a[key], b[key]))


def take_option(args, name):
    """The two values after `name` in args (removed from them), or None."""
    if name not in args:
        return None
    i = args.index(name)
    values = (args[i + 1], args[i + 2])
    del args[i:i + 3]
    return values


def main():
    args = sys.argv[1:]
    mbridge = take_option(args, "--megatron-bridge")
    foundry = take_option(args, "--llm-foundry")
    path = args[0] if args else REFERENCE
    with open(path) as f:
        rows = json.load(f)["rows"]
    if mbridge:
        docs, commit = mbridge
        skipped = []
        table_rows = (
            mbridge_rows(os.path.join(docs, "performance-summary.md"),
                         "NVIDIA NeMo Megatron-Bridge Performance Summary",
                         "https://docs.nvidia.com/nemo/megatron-bridge/latest/"
                         "performance-summary.html", commit, skipped) +
            mbridge_rows(os.path.join(docs, "performance-summary-archive.md"),
                         "NVIDIA NeMo Megatron-Bridge Performance Summary (archive)",
                         "https://docs.nvidia.com/nemo/megatron-bridge/latest/"
                         "performance-summary-archive.html", commit, skipped))
        for r in table_rows:
            if not r["doubtful"] and uninterleaved_unlike_recipes(r):
                r["doubtful"] = True
                r["doubt_reason"] = ("VP n/a with pp %d, but every Megatron-Bridge recipe of this "
                                     "model, system and precision, in every release, interleaves "
                                     "the pipeline" % r["parallel"]["pp"])
            if not r["doubtful"] and unpipelined_unlike_recipes(r):
                r["doubtful"] = True
                r["doubt_reason"] = ("PP 1 and FSDP 0, but every Megatron-Bridge recipe of this "
                                     "model, system and precision, in every release, runs a "
                                     "pipeline")
        merge_table_rows(rows, table_rows)
        for rid, reason in skipped:
            print("not a case: %s (%s)" % (rid, reason))
    if foundry:
        merge_table_rows(rows, foundry_rows(*foundry))
    out_dir = os.path.join(ROOT, "docs", "cases")
    written = set()
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
        written.add(file)
    # A case this script wrote before whose row no longer becomes one goes.
    for file in sorted(os.listdir(out_dir)):
        full = os.path.join(out_dir, file)
        if file.endswith(".json") and file not in written:
            with open(full) as f:
                if "Generated by scripts/make_published_cases.py" in json.load(f)["description"]:
                    os.remove(full)
                    print("removed %s" % file)
    print("%d cases written to %s" % (len(written), out_dir))


if __name__ == "__main__":
    main()
