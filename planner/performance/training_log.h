#pragma once

// The timing lines of a training framework's log, for calibrating the step-time model on the
// user's own run (`tally calibrate --log FILE`). Qt-free, no I/O: the caller feeds lines.
//
// Formats (each as its framework prints it; the line may carry any prefix, such as a launcher's
// "[rank0]:" or a logger's time stamp, and terminal colour codes):
// - Megatron-LM (and NeMo / Megatron-Bridge, which print through it): training_log() in
//   megatron/training/training.py (NVIDIA/Megatron-LM at 001b00c2734d8f0fad096fe48a382fedf755d321)
//   prints " iteration {:8d}/{:8d} | ... | elapsed time per iteration (ms): {:.1f} | ...", the
//   mean over the iterations since the last print; it prints iteration 1 alone (to show the
//   start-up overhead) and, not resetting its timer then, the next print still averages over it.
// - NeMo 2 (Lightning): ProgressPrinter.on_train_batch_end in
//   nemo/lightning/pytorch/callbacks/progress_printer.py (NVIDIA/NeMo at
//   8e2ee3d4e2183c2f9813af64cfd45f6b7f800301) prints "Training epoch E, iteration N/M | ... |
//   train_step_timing in s: {:.4} | ...", the mean over its log interval.
// - torchtitan: MetricsProcessor.log in torchtitan/components/metrics.py (pytorch/torchtitan at
//   c594d8ac89f0b850a8fc1443796916dfa6ab06b1) prints "step: {:2}  loss: ...  tps: {round(tps):,}
//   ...", tps being tokens per second per GPU over the steps since the last print (tokens of the
//   data-parallel rank / (seconds x the GPUs of its model-parallel group)); it prints step 1
//   alone (compilation and warm-up) and then every log_freq steps.
// Megatron-LM's timing line also says the run's global batch (" global batch size: {:5d} |",
// the same log_string of training_log()), which the summary keeps, so that a log of another
// run (another batch) is not fitted to the spec.
//
// Ranks: a launcher's prefix ("[rank3]:" from torchrun's --tee or --log-line-prefix-template,
// "[default3]:" from torchelastic's older one) names the rank of each line, and only one rank's
// records count, so that no interval is counted twice. Which one does not depend on the order of
// the lines (ranks write concurrently, so a log interleaves them as they came): `rank` in the
// settings picks one; by default it is the rank the framework prints its timing line from:
// - Megatron-LM: training_log() prints through print_rank_last() (megatron/training/utils.py,
//   core_v0.12.0), which prints on rank world_size - 1 only: the highest rank in the log.
// - NeMo 2: ProgressPrinter derives from Lightning's ProgressBar, whose setup() disables it on
//   every rank but global rank 0 (lightning/pytorch/callbacks/progress/progress_bar.py): the
//   lowest rank in the log.
// - torchtitan: every rank logs its own tps; its run_train.sh shows rank 0's lines
//   (LOG_RANK=0 for torchrun's --local-ranks-filter): the lowest rank in the log.
// Lines without a prefix count as a rank of their own, used only when no line names a rank.
//
// Warm-up: the first `skip_records` timing records of the log are dropped (default 2: Megatron's
// iteration-1 print and the next one, which still includes iteration 1; torchtitan's step 1 and
// the first interval), and the measured figure is the median of the rest, robust to a
// checkpoint save or an evaluation that slowed one interval down.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tally {

enum class TrainingLogFormat {
    megatron,    // "elapsed time per iteration (ms): X": seconds per step
    nemo,        // "train_step_timing in s: X": seconds per step
    torchtitan,  // "tps: N": tokens per second per GPU
};
std::string_view to_string(TrainingLogFormat format);

// The physical range of a timing record, beyond any real run, so that every figure taken from a
// log stays finite (a rate of 1e-320 tokens/s made a step time of infinity): a step of
// [1e-9, 1e9] s (Megatron's milliseconds converted), [0.001, 1e12] tokens/s per GPU.
inline constexpr double kMinLogStepS = 1e-9;
inline constexpr double kMaxLogStepS = 1e9;
inline constexpr double kMinLogTokensPerS = 1e-3;
inline constexpr double kMaxLogTokensPerS = 1e12;

struct TrainingLogSettings {
    std::int64_t skip_records = 2;  // warm-up records dropped from the start of the log
    // The rank whose records count; -1: the rank the framework prints its timing from (above).
    std::int64_t rank = -1;
};
inline constexpr std::int64_t kMaxSkipRecords = 1'000'000;

struct TrainingLogSummary {
    TrainingLogFormat format = TrainingLogFormat::megatron;
    std::int64_t lines = 0;               // lines read
    std::int64_t records = 0;             // timing records of the rank used
    std::int64_t skipped = 0;             // of them, dropped as warm-up
    std::int64_t used = 0;                // of them, in the median
    std::int64_t other_rank_records = 0;  // records printed by other ranks ("[rank3]:"), ignored
    std::int64_t rank = -1;               // the rank whose records were used; -1: lines name none
    // The iteration (step) numbers of the first and last records used; -1 when the lines do not
    // say.
    std::int64_t first_iteration = -1;
    std::int64_t last_iteration = -1;
    // Of the records used: seconds per step (megatron, nemo) or tokens per second per GPU
    // (torchtitan).
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
    // The global batch the records used print (Megatron-LM), least and most (they differ under
    // a batch ramp-up); -1 when none prints one.
    std::int64_t global_batch_min = -1;
    std::int64_t global_batch_max = -1;
    // The records (from the log's first) to drop so that every one left prints the last
    // record's global batch: the length of a batch ramp-up; 0 when the batch never changes.
    std::int64_t records_before_last_batch = 0;
    // True when `median` is seconds per step; false when it is tokens per second per GPU.
    bool is_step_time() const { return format != TrainingLogFormat::torchtitan; }
};

// Reads a log line by line. Throws SpecError naming the line ("log line 12") for a timing line
// whose value is not a number in the range above and for a log mixing two formats.
class TrainingLogReader {
public:
    void add_line(std::string_view line);
    // The median of the records after the warm-up. Throws SpecError naming "log" when the log
    // has no timing line, naming "rank" when the settings' rank has none, and naming
    // "skip_records" when it is negative or leaves nothing.
    TrainingLogSummary summary(const TrainingLogSettings& settings = {}) const;
    // Timing records read so far, of the rank the settings pick (0 when it has none).
    std::int64_t records(const TrainingLogSettings& settings = {}) const;

private:
    struct Record {
        double value = 0.0;
        std::int64_t iteration = -1;
        std::int64_t global_batch = -1;  // Megatron-LM's "global batch size: N"; -1: not said
    };
    // The rank the settings pick (header comment), or SpecError naming "rank".
    std::int64_t chosen_rank(const TrainingLogSettings& settings) const;
    // Each rank's records in the order of its lines; key -1: lines without a rank prefix.
    std::map<std::int64_t, std::vector<Record>> m_records;
    std::int64_t m_lines = 0;
    bool m_has_format = false;
    TrainingLogFormat m_format = TrainingLogFormat::megatron;
};

// The whole text at once (lines split at '\n'; a trailing '\r' is dropped).
TrainingLogSummary read_training_log(std::string_view text,
                                     const TrainingLogSettings& settings = {});

}  // namespace tally
