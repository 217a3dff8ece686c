// The texts of `tally --help` and of its commands' help, for lupdate: the formatter of
// app/cli_help.cpp looks each up under "tally::help". Written by
//   TALLY_HELP_TEXTS=write build/release/app/tally > app/cli_help_texts.cpp
//   clang-format -i app/cli_help_texts.cpp
// (a test checks it against the command line); do not edit by hand.
#include <cstddef>

#include "planner/core/text.h"

namespace tally::cli {

extern const char* const kHelpTexts[];
extern const std::size_t kHelpTextCount;

const char* const kHelpTexts[] = {
    QT_TRANSLATE_NOOP("tally::help",
                      "2 to 6 saved plans side by side: GPUs, layout, memory, step, days, "
                      "GPU-hours, cost, energy"),
    QT_TRANSLATE_NOOP("tally::help", "A built-in id (see `tally hardware list`)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "A plan as a framework's launch configuration (Megatron-LM arguments, NeMo overrides, "
        "torchtitan TOML, DeepSpeed JSON, accelerate YAML), or a serving plan as its engine's "
        "command (vllm serve, SGLang's launch_server, trtllm-serve)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "A run's launch configuration (a Megatron-LM command line or its printed "
                      "arguments, NeMo overrides, a torchtitan TOML, a DeepSpeed JSON, an "
                      "accelerate YAML) as a plan spec, or a serving engine's command (vllm serve, "
                      "sglang.launch_server, trtllm-serve) as a serving plan"),
    QT_TRANSLATE_NOOP("tally::help", "A saved plan and its spec"),
    QT_TRANSLATE_NOOP("tally::help",
                      "A stored probe run (tally probes list) whose measured roofs and points to "
                      "show beside the promised ones"),
    QT_TRANSLATE_NOOP("tally::help", "A value to convert into every format (e.g. 1e-8)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Add a custom profile copied from another (--from), or a measured one from a "
                      "probe run (--from-run)"),
    QT_TRANSLATE_NOOP("tally::help", "Add the profile a JSON file holds (its id and name)"),
    QT_TRANSLATE_NOOP("tally::help", "Board power in watts"),
    QT_TRANSLATE_NOOP("tally::help", "CUDA device ordinal (default 0)"),
    QT_TRANSLATE_NOOP("tally::help", "Change fields of a custom or measured profile"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Continuous batching at each of these concurrencies, e.g. 1,16,64,256: TTFT, "
                      "ITL and throughput in one table (JSON: concurrency_sweep)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Continuous batching: requests in flight per replica (sets inference.concurrency)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Continuous batching: requests per second the deployment must complete; the "
                      "concurrency that does it is solved for"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Dense peak of a dtype, DTYPE=FLOP/s (bf16=989.5e12; 0 removes it); repeatable"),
    QT_TRANSLATE_NOOP("tally::help", "Desktop app: draw the window into this PNG file and exit"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Desktop app: open this plan (JSON) instead of the autosaved one"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Desktop app: show this stored probe run of the workspace (the Probe panel's "
                      "results and the roofline's measured roofs and points)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Desktop app: the panel in front (memory, time, layouts, roofline, formats, "
                      "inference, profiles, plans, compare, probe)"),
    QT_TRANSLATE_NOOP("tally::help", "Dimensions separated by x or commas, e.g. 4x8"),
    QT_TRANSLATE_NOOP("tally::help", "Display program version information and exit"),
    QT_TRANSLATE_NOOP("tally::help", "Do not list what was read on standard error"),
    QT_TRANSLATE_NOOP("tally::help", "Evaluate a plan: memory per GPU, FLOPs, time, cost"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Evaluate one plan on 2 to 6 profiles side by side (fits, memory headroom, "
                      "days, GPU-hours, cost, ridge)"),
    QT_TRANSLATE_NOOP("tally::help", "Every built-in accelerator with its peaks"),
    QT_TRANSLATE_NOOP("tally::help", "Every probe run, newest first"),
    QT_TRANSLATE_NOOP("tally::help", "Every profile, built-in ones first"),
    QT_TRANSLATE_NOOP("tally::help", "Every saved plan, by name"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Every valid parallel layout (tp, pp, context parallel, dp, ZeRO, "
                      "micro-batch, recompute, sequence parallel, interleave, expert parallel) "
                      "that fits, ranked by predicted step time or cost"),
    QT_TRANSLATE_NOOP("tally::help", "Excludes"),
    QT_TRANSLATE_NOOP("tally::help", "FLOAT"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Fit the predicted step to a measured one (--step-s, or a Megatron-LM / NeMo "
                      "/ torchtitan log) and store the efficiency in a workspace profile"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "For an nccl-tests log that does not name its test (older versions) and whose file name "
        "does not either: all_reduce, all_gather, reduce_scatter, alltoall or sendrecv"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Hardware profiles: built-in (read-only), custom copies, measured by a probe"),
    QT_TRANSLATE_NOOP("tally::help", "How many layouts to list (default 10)"),
    QT_TRANSLATE_NOOP("tally::help", "INT"),
    QT_TRANSLATE_NOOP("tally::help", "Id of the new profile (letters, digits, . _ -)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Id of the profile to store it in (default: <gpu>-calibrated, or the spec's "
                      "own profile when it is calibrated already)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Import a probe run recorded elsewhere: tally-probe JSON lines (ssh gpu tally-probe > "
        "run.jsonl, a Slurm job's output) or an nccl-tests log (all_reduce_perf, all_gather_perf, "
        "reduce_scatter_perf, alltoall_perf, sendrecv_perf)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Language of the window and of the text output: en or zh_CN (default: the "
                      "window's last choice, else LANG)"),
    QT_TRANSLATE_NOOP("tally::help", "Largest cluster to try (default 2^20)"),
    QT_TRANSLATE_NOOP("tally::help", "List settings Tally does not know instead of refusing them"),
    QT_TRANSLATE_NOOP("tally::help", "List the model presets and their sources"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Measure exactly the GEMMs this plan spec runs (forward, data and weight gradients of "
        "every layer and the output layer, at their tensor-parallel shapes, in its compute dtype) "
        "with the gemm_shapes test, and print each one's measured time beside the model's on the "
        "spec's profile (or --profile). A profile made from the run (tally profiles add --from-run "
        "RUN --base ID) makes predictions use those times"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Measure this machine, or an ssh host (--remote), with tally-probe (a GPU through CUDA, or "
        "the CPU), print each result as it arrives, and save the run in the workspace"),
    QT_TRANSLATE_NOOP("tally::help", "Measured seconds per optimizer step"),
    QT_TRANSLATE_NOOP("tally::help", "Memory bandwidth in bytes/s (3.35e12)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Memory of a tensor: elements x bytes per value (e.g. tally tensor 49152x12288)"),
    QT_TRANSLATE_NOOP("tally::help", "Memory per GPU in bytes (80e9)"),
    QT_TRANSLATE_NOOP("tally::help", "Name of a new profile (default: <name> (calibrated))"),
    QT_TRANSLATE_NOOP("tally::help", "Name of the new profile"),
    QT_TRANSLATE_NOOP("tally::help", "Name of the plan"),
    QT_TRANSLATE_NOOP("tally::help", "Name or id"),
    QT_TRANSLATE_NOOP("tally::help", "Names or ids"),
    QT_TRANSLATE_NOOP("tally::help", "Needs"),
    QT_TRANSLATE_NOOP("tally::help", "New name"),
    QT_TRANSLATE_NOOP("tally::help", "Notes"),
    QT_TRANSLATE_NOOP("tally::help", "Number format (default fp32, PyTorch's default)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Number formats: bits, range, precision, and what a value becomes in each"),
    QT_TRANSLATE_NOOP("tally::help", "OPTIONS"),
    QT_TRANSLATE_NOOP("tally::help", "One accelerator with every field and source"),
    QT_TRANSLATE_NOOP("tally::help", "One probe run with its results"),
    QT_TRANSLATE_NOOP("tally::help", "One profile with every field"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Only these tests, comma-separated (tally-probe --list --backend B names them)"),
    QT_TRANSLATE_NOOP("tally::help", "Options"),
    QT_TRANSLATE_NOOP("tally::help", "Overwrite the plan of that name if there is one"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Plan serving: memory per GPU, KV cache, time to first token, decode step, "
                      "throughput, cost per token"),
    QT_TRANSLATE_NOOP("tally::help", "Plan spec (JSON file; - reads standard input)"),
    QT_TRANSLATE_NOOP("tally::help", "Plan spec with an inference block (- reads stdin)"),
    QT_TRANSLATE_NOOP("tally::help", "Positionals"),
    QT_TRANSLATE_NOOP("tally::help", "Print JSON instead of a table"),
    QT_TRANSLATE_NOOP("tally::help", "Print a JSON array"),
    QT_TRANSLATE_NOOP("tally::help", "Print a profile's JSON (for `profiles import`)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Print one JSON document at the end instead of a table (progress still goes to stderr)"),
    QT_TRANSLATE_NOOP("tally::help", "Print one JSON object"),
    QT_TRANSLATE_NOOP("tally::help", "Print one JSON object instead of a table"),
    QT_TRANSLATE_NOOP("tally::help", "Print this help message and exit"),
    QT_TRANSLATE_NOOP("tally::help", "Probe run id"),
    QT_TRANSLATE_NOOP("tally::help", "Probe run to measure from"),
    QT_TRANSLATE_NOOP("tally::help", "Profile JSON (from `profiles export`; - reads stdin)"),
    QT_TRANSLATE_NOOP("tally::help", "Profile id"),
    QT_TRANSLATE_NOOP("tally::help", "Profile ids, comma-separated (a,b,c)"),
    QT_TRANSLATE_NOOP("tally::help", "Profile to copy (built-in or stored)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Profile whose dense peaks and bandwidth each result is a fraction of (built-in or stored; "
        "default: the catalog entry matching the device name, if any)"),
    QT_TRANSLATE_NOOP("tally::help", "REQUIRED"),
    QT_TRANSLATE_NOOP("tally::help", "Remove a custom or measured profile"),
    QT_TRANSLATE_NOOP("tally::help", "Remove a saved plan"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Remove a stored probe run and its results (refused while a measured profile "
                      "was made from it, or while it is being recorded)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Remove it even when saved plans run on it (they then need another GPU)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Run tally-probe as the ranks of a cluster launcher, e.g. \"srun -N 2 --ntasks-per-node 8 "
        "--gpus-per-node 8\" or \"mpirun -np 16\" (one rank per GPU; with --remote, on that host's "
        "cluster). The backend defaults to nccl (collectives across the GPUs); tcp runs the same "
        "on CPU ranks. The ranks meet through a file in the working folder, which must be on a "
        "filesystem every node shares"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Run tally-probe on this ssh host (HOST or USER@HOST) instead of here; the results stream "
        "back and are saved here. The ssh client is $TALLY_SSH when set, else ssh; it must log in "
        "without a password prompt (a key or an agent)"),
    QT_TRANSLATE_NOOP("tally::help", "SUBCOMMAND"),
    QT_TRANSLATE_NOOP("tally::help", "SUBCOMMANDS"),
    QT_TRANSLATE_NOOP("tally::help", "Save a spec file as a named plan"),
    QT_TRANSLATE_NOOP("tally::help", "Saved plans"),
    QT_TRANSLATE_NOOP("tally::help", "Small sizes and few samples (a CPU run takes ~15 s)"),
    QT_TRANSLATE_NOOP("tally::help", "Solve for a quantity under a spec's recipe"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Stop the probe as hung when it prints nothing for this many seconds"),
    QT_TRANSLATE_NOOP("tally::help", "Store it under this id instead"),
    QT_TRANSLATE_NOOP("tally::help", "Store it under this name instead"),
    QT_TRANSLATE_NOOP("tally::help", "Stored probe runs and their results"),
    QT_TRANSLATE_NOOP("tally::help", "Subcommands"),
    QT_TRANSLATE_NOOP("tally::help", "TEXT"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Tally: plan the resources of training a large language model, and measure "
                      "the GPU it will run on."),
    QT_TRANSLATE_NOOP("tally::help", "The built-in hardware catalog"),
    QT_TRANSLATE_NOOP("tally::help", "The configuration (- reads standard input)"),
    QT_TRANSLATE_NOOP("tally::help", "The file to import"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "The largest batch of sequences that fits at the full context (prompt + output tokens)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "The largest model (parameter count) that fits the cluster: model state "
                      "only, unless the spec sets solver.include_activations"),
    QT_TRANSLATE_NOOP("tally::help",
                      "The model's Hugging Face config.json (DeepSpeed and accelerate configs do "
                      "not describe the model; a serving command's checkpoint of no preset)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "The roofline of a spec's GPU, its ops and the model's own layers"),
    QT_TRANSLATE_NOOP("tally::help",
                      "The smallest cluster (whole nodes) that trains the spec's tokens in D days"),
    QT_TRANSLATE_NOOP("tally::help", "The spec the run was made with (JSON; - reads stdin)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "The tally-probe executable (default: $TALLY_PROBE, beside tally, the build "
                      "tree's gpu_probe/, then PATH)"),
    QT_TRANSLATE_NOOP("tally::help", "The world size, where the file leaves it to the launcher"),
    QT_TRANSLATE_NOOP("tally::help",
                      "Training log: Megatron-LM/NeMo \"elapsed time per iteration (ms)\", NeMo "
                      "\"train_step_timing in s\" or torchtitan \"tps\""),
    QT_TRANSLATE_NOOP("tally::help", "Training time allowed, days"),
    QT_TRANSLATE_NOOP("tally::help", "UINT"),
    QT_TRANSLATE_NOOP("tally::help", "Usage"),
    QT_TRANSLATE_NOOP("tally::help", "Vendor"),
    QT_TRANSLATE_NOOP("tally::help",
                      "What one GPU-hour of the part costs (compare prices each part at its own; "
                      "none removes it)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "With --from-run: make the profile from a run whose status is failed (it stopped before "
        "its end, or a test failed) out of the passed, validated results it has"),
    QT_TRANSLATE_NOOP("tally::help", "With --from-run: profile whose other figures to keep"),
    QT_TRANSLATE_NOOP("tally::help",
                      "With --launcher: the file the ranks meet through (default: "
                      ".tally-probe-bootstrap-PID-TIME in the working folder)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "With --log: the rank whose lines count in a log of several ([rankN]: "
                      "prefixes; default: the rank the framework prints its timing from, "
                      "Megatron-LM's last, NeMo's and torchtitan's 0)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "With --log: timing records dropped from the start as warm-up (default 2)"),
    QT_TRANSLATE_NOOP("tally::help",
                      "With --remote: the tally-probe executable on the remote host (default: "
                      "tally-probe on its PATH)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "With --to vllm|sglang|tensorrt_llm: the model's checkpoint, a Hugging Face id or a local "
        "path (default: the preset's, or the model's name where it is a Hugging Face id)"),
    QT_TRANSLATE_NOOP("tally::help", "Workspace database"),
    QT_TRANSLATE_NOOP("tally::help", "Workspace database (for custom and measured GPUs)"),
    QT_TRANSLATE_NOOP("tally::help", "Workspace file"),
    QT_TRANSLATE_NOOP("tally::help", "Workspace file (default: %1)"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "Workspace file (default: %1); with --screenshot, without it: an empty scratch workspace"),
    QT_TRANSLATE_NOOP("tally::help", "Write the spec to FILE (default: stdout)"),
    QT_TRANSLATE_NOOP("tally::help", "Write to FILE (default: standard output)"),
    QT_TRANSLATE_NOOP("tally::help", "auto (from the content), tally-probe or nccl-tests"),
    QT_TRANSLATE_NOOP(
        "tally::help",
        "cuda (an NVIDIA GPU), cpu (this machine's cores and memory), nccl (the collectives "
        "between the GPUs a --launcher starts) or tcp (the same on CPU ranks, without GPUs). "
        "Default: nccl with --launcher; else cuda when the probe was built with CUDA and a GPU "
        "answers, else cpu. Without a GPU or driver, --backend cuda says so in one line, measures "
        "nothing and exits 1: use --backend cpu there"),
    QT_TRANSLATE_NOOP("tally::help",
                      "megatron|nemo|torchtitan|deepspeed|accelerate|vllm|sglang|tensorrt_llm"),
    QT_TRANSLATE_NOOP("tally::help",
                      "megatron|nemo|torchtitan|deepspeed|accelerate|vllm|sglang|tensorrt_llm "
                      "(default: from the file)"),
    QT_TRANSLATE_NOOP("tally::help", "time (default) or cost"),
};
const std::size_t kHelpTextCount = 141;

}  // namespace tally::cli
