<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <source>%1 (*.%2);;All files (*)</source>
        <translation>%1 (*.%2);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Copy the plan as %1 to the clipboard</source>
        <translation>把计划以 %1 格式复制到剪贴板</translation>
    </message>
    <message>
        <source>Tally</source>
        <translation>Tally</translation>
    </message>
    <message>
        <source>%1 cannot run this plan as it is: %2</source>
        <translation>%1 无法按原样运行此计划：%2</translation>
    </message>
    <message>
        <source>Copy the serving plan as %1 to the clipboard</source>
        <translation>把服务计划复制为 %1 到剪贴板</translation>
    </message>
    <message>
        <source>Checkpoint (a Hugging Face id or a local path):</source>
        <translation>检查点（Hugging Face id 或本地路径）：</translation>
    </message>
</context>
<context>
    <name>WorkspaceSession</name>
    <message>
        <source>No workspace file was given.</source>
        <translation>没有给出工作区文件。</translation>
    </message>
</context>
<context>
    <name>tally::FieldError</name>
    <message>
        <source>%1: got %2; %3</source>
        <translation>%1：给出的是 %2；%3</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>空</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>空值</translation>
    </message>
    <message>
        <source>given with preset</source>
        <translation>与 preset 同时给出</translation>
    </message>
    <message>
        <source>a switch</source>
        <translation>一个开关</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
</context>
<context>
    <name>tally::calibration</name>
    <message>
        <source>a measured step time in seconds, &gt; 0 (at least 1e-9) and at most 1e9</source>
        <translation>一个实测的单步时间，单位为秒，&gt; 0（至少 1e-9）且最多 1e9</translation>
    </message>
    <message>
        <source>&quot;predicted&quot; (or absent): a calibration fits the predicted step, and with an assumed MFU the spec&apos;s time does not rest on it</source>
        <translation>&quot;predicted&quot;（或不填）：校准拟合的是预测的单步时间，而使用假设的 MFU 时，规格的时间不依赖于它</translation>
    </message>
    <message>
        <source>a spec whose step the model predicts (&gt; 0 s)</source>
        <translation>一个模型能预测其单步时间（&gt; 0 s）的规格</translation>
    </message>
    <message>
        <source>a step within 100x of the prediction for this spec (%1 s; efficiency %2 is outside [0.01, 100]): check that the spec has the run&apos;s layout, batch and sequence length, and that the step is in seconds</source>
        <translation>一个与此规格的预测值（%1 s）相差不超过 100 倍的单步时间（效率 %2 超出 [0.01, 100]）：请检查规格的布局、批次和序列长度是否与该运行一致，以及单步时间的单位是否为秒</translation>
    </message>
    <message>
        <source>%1 (calibrated)</source>
        <translation>%1（已校准）</translation>
    </message>
    <message>
        <source>calibrated from a measured step of %1 s (%2 / %3)</source>
        <translation>根据实测单步 %1 s 校准（%2 / %3）</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>日期未记录</translation>
    </message>
    <message>
        <source>source not recorded</source>
        <translation>来源未记录</translation>
    </message>
    <message>
        <source>entered with --step-s</source>
        <translation>用 --step-s 输入</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 step times (iterations %5 to %6), %4 dropped as warm-up</source>
        <translation>%1 日志 %2：%3 个单步时间的中位数（第 %5 到 %6 次迭代），%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 step times, %4 dropped as warm-up</source>
        <translation>%1 日志 %2：%3 个单步时间的中位数，%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 tokens/s per GPU (iterations %5 to %6), %4 dropped as warm-up</source>
        <translation>%1 日志 %2：%3 个每 GPU token/s 读数的中位数（第 %5 到 %6 次迭代），%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 tokens/s per GPU, %4 dropped as warm-up</source>
        <translation>%1 日志 %2：%3 个每 GPU token/s 读数的中位数，%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 step times (iterations %5 to %6) of rank %7, %4 dropped as warm-up</source>
        <translation>%1 日志 %2：rank %7 的 %3 个单步时间的中位数（第 %5 到 %6 次迭代），%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 step times of rank %5, %4 dropped as warm-up</source>
        <translation>%1 日志 %2：rank %5 的 %3 个单步时间的中位数，%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 tokens/s per GPU (iterations %5 to %6) of rank %7, %4 dropped as warm-up</source>
        <translation>%1 日志 %2：rank %7 的 %3 个每 GPU token/s 读数的中位数（第 %5 到 %6 次迭代），%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>%1 log %2: median of %3 tokens/s per GPU of rank %5, %4 dropped as warm-up</source>
        <translation>%1 日志 %2：rank %5 的 %3 个每 GPU token/s 读数的中位数，%4 个作为预热丢弃</translation>
    </message>
    <message>
        <source>entered in the window</source>
        <translation>在窗口中输入</translation>
    </message>
    <message>
        <source>a step the hardware can run: at least %1 s, what the spec&apos;s %2 hardware FLOPs a step take at the part&apos;s peak on all %3 GPUs (the step measured would be HFU %4); check that the spec has the run&apos;s layout, batch and sequence length, and that the step is in seconds</source>
        <translation>硬件跑得出的步长：至少 %1 s，即该规格每步 %2 个硬件 FLOP 在全部 %3 块 GPU 上以峰值运行所需的时间（按所测步长 HFU 将为 %4）；请检查规格的布局、批次和序列长度是否与该次运行一致，以及步长的单位是否为秒</translation>
    </message>
    <message>
        <source>the measured step puts the spec at HFU %1, above %2, the best published %3 GEMM fraction of %4: its GEMMs alone do not run that fast. Check that the spec has the run&apos;s layout, batch and sequence length, and that the step is in seconds</source>
        <translation>实测单步使该计划的 HFU 达到 %1，高于 %4 已公布的最佳 %3 GEMM 比例 %2：仅其 GEMM 都跑不了这么快。请检查计划的并行布局、批次和序列长度是否与该次运行一致，以及单步时间是否以秒为单位</translation>
    </message>
    <message>
        <source>the global batch of the run that wrote the log, %1 (its &quot;global batch size&quot;): calibrate with the spec of that run</source>
        <translation>写出该日志的那次运行的全局批次 %1（日志中的 &quot;global batch size&quot;）：请用那次运行的规格来校准</translation>
    </message>
    <message>
        <source>timing records at one global batch: the first %1 records print another than the last&apos;s (a batch ramp-up); skip them as warm-up (--skip-records %1)</source>
        <translation>全局批次相同的计时记录：前 %1 条记录的全局批次与最后一条不同（批次逐步增大，即 ramp-up）；请把它们作为预热跳过（--skip-records %1）</translation>
    </message>
</context>
<context>
    <name>tally::check</name>
    <message>
        <source>must be an integer &gt;= 1 (or absent: the hardware profile&apos;s node size)</source>
        <translation>必须是 &gt;= 1 的整数（或不填：使用硬件配置的节点大小）</translation>
    </message>
    <message>
        <source>must be a number in [1e6, 1e16] bytes/s per GPU per direction (or absent: the hardware profile&apos;s)</source>
        <translation>必须是 [1e6, 1e16] 范围内的数，单位为每 GPU 每方向的字节/秒（或不填：使用硬件配置的值）</translation>
    </message>
    <message>
        <source>must be an integer &gt;= 1</source>
        <translation>必须是 &gt;= 1 的整数</translation>
    </message>
    <message>
        <source>must be 1 unless training.pp &gt; 1 (virtual stages interleave a pipeline)</source>
        <translation>除非 training.pp &gt; 1，否则必须为 1（虚拟阶段是在流水线内交错的）</translation>
    </message>
    <message>
        <source>training.pp x training.interleave (%1 x %2) must divide model.layers (%3)</source>
        <translation>training.pp x training.interleave（%1 x %2）必须整除 model.layers（%3）</translation>
    </message>
    <message>
        <source>must be at most %1 (the fewest layers of a pipeline stage, %2, plus one)</source>
        <translation>最多为 %1（流水线阶段的最少层数 %2，再加一）</translation>
    </message>
    <message>
        <source>must be an integer &gt;= 1 (or 0: the same as training.tp)</source>
        <translation>必须是 &gt;= 1 的整数（或 0：与 training.tp 相同）</translation>
    </message>
    <message>
        <source>must be 0 or training.tp for a model without experts (model.moe)</source>
        <translation>对于没有专家（model.moe）的模型，必须为 0 或 training.tp</translation>
    </message>
    <message>
        <source>must divide the experts&apos; hidden width (%1)</source>
        <translation>必须整除专家的隐藏宽度（%1）</translation>
    </message>
    <message>
        <source>must be 1 for a model without experts (model.moe)</source>
        <translation>对于没有专家（model.moe）的模型，必须为 1</translation>
    </message>
    <message>
        <source>times the experts&apos; tensor parallelism (%1) must divide the GPUs of a pipeline stage (%2 = tp x cp x dp = %3 x %4 x %5): experts are spread over the data- and context-parallel ranks</source>
        <translation>乘以专家张量并行度（%1）后必须整除一个流水线阶段的 GPU 数（%2 = tp x cp x dp = %3 x %4 x %5）：专家分布在数据并行和上下文并行的 rank 上</translation>
    </message>
    <message>
        <source>must divide model.moe.experts (%1) so every rank holds whole experts</source>
        <translation>必须整除 model.moe.experts（%1），使每个 rank 持有完整的专家</translation>
    </message>
    <message>
        <source>must be a number in [1, 1e6]: the busiest expert&apos;s tokens over the balanced share</source>
        <translation>必须是 [1, 1e6] 范围内的数：最忙专家收到的 token 数与均衡份额之比</translation>
    </message>
    <message>
        <source>must be at most experts / active_experts (%1 / %2 = %3): an expert receives each token at most once</source>
        <translation>最多为 experts / active_experts（%1 / %2 = %3）：每个 token 至多到达一个专家一次</translation>
    </message>
    <message>
        <source>optimizer_and_params streams parameter shards, so it needs training.zero = 3 (ZeRO-Infinity); use &quot;optimizer&quot; with ZeRO 0-2</source>
        <translation>optimizer_and_params 会流式传输参数分片，因此需要 training.zero = 3（ZeRO-Infinity）；ZeRO 0-2 请用 &quot;optimizer&quot;</translation>
    </message>
    <message>
        <source>must be 0 for a model without layers (a &apos;params&apos; model)</source>
        <translation>对于没有层的模型（&apos;params&apos; 模型），必须为 0</translation>
    </message>
    <message>
        <source>must be 0 unless training.pp &gt; 1</source>
        <translation>除非 training.pp &gt; 1，否则必须为 0</translation>
    </message>
    <message>
        <source>must be at most model.layers (%1)</source>
        <translation>最多为 model.layers（%1）</translation>
    </message>
    <message>
        <source>with training.pp = 2, first_stage_layers + last_stage_layers (%1 + %2) must equal model.layers (%3)</source>
        <translation>当 training.pp = 2 时，first_stage_layers + last_stage_layers（%1 + %2）必须等于 model.layers（%3）</translation>
    </message>
    <message>
        <source>leaves %1 layers for the other %2 pipeline stages; each needs at least one (model.layers = %3)</source>
        <translation>只给其余 %2 个流水线阶段留下 %1 层；每个阶段至少需要一层（model.layers = %3）</translation>
    </message>
    <message>
        <source>must be 1 for a model without attention (context parallelism splits sequences over attention&apos;s ring)</source>
        <translation>对于没有注意力的模型，必须为 1（上下文并行把序列分到注意力的环上）</translation>
    </message>
    <message>
        <source>2 x context_parallel must divide data.seq_len (%1): each rank takes two of 2 x cp equal chunks of a sequence</source>
        <translation>2 x context_parallel 必须整除 data.seq_len（%1）：每个 rank 取一个序列 2 x cp 个等长块中的两块</translation>
    </message>
    <message>
        <source>must be an integer in [%1, 2^53 = %2]</source>
        <translation>必须是 [%1, 2^53 = %2] 范围内的整数</translation>
    </message>
    <message>
        <source>must be a number in (0, 1e18]</source>
        <translation>必须是 (0, 1e18] 范围内的数</translation>
    </message>
    <message>
        <source>must divide model.hidden (%1) when model.head_dim is not given</source>
        <translation>未给出 model.head_dim 时，必须整除 model.hidden（%1）</translation>
    </message>
    <message>
        <source>must divide model.heads (%1)</source>
        <translation>必须整除 model.heads（%1）</translation>
    </message>
    <message>
        <source>must be between 1 and model.moe.experts (%1)</source>
        <translation>必须在 1 到 model.moe.experts（%1）之间</translation>
    </message>
    <message>
        <source>must be an integer &gt;= 1 (or give model.ffn_hidden)</source>
        <translation>必须是 &gt;= 1 的整数（或给出 model.ffn_hidden）</translation>
    </message>
    <message>
        <source>qk_nope_head_dim, qk_rope_head_dim and v_head_dim must be &gt;= 1</source>
        <translation>qk_nope_head_dim、qk_rope_head_dim 和 v_head_dim 必须 &gt;= 1</translation>
    </message>
    <message>
        <source>must divide model.heads (%1) so every GPU holds whole heads</source>
        <translation>必须整除 model.heads（%1），使每个 GPU 持有完整的注意力头</translation>
    </message>
    <message>
        <source>must divide model.kv_heads (%1) or be a multiple of it</source>
        <translation>必须整除 model.kv_heads（%1），或是它的倍数</translation>
    </message>
    <message>
        <source>must be at most model.layers (%1): every pipeline stage holds at least one layer</source>
        <translation>最多为 model.layers（%1）：每个流水线阶段至少有一层</translation>
    </message>
    <message>
        <source>must be in [%1, 1]: a fraction of the dense peak</source>
        <translation>必须在 [%1, 1] 范围内：稠密峰值的一个比例</translation>
    </message>
    <message>
        <source>must be a multiple of training.tp x training.pp x training.context_parallel (%1 x %2 x %3), so at least their product</source>
        <translation>必须是 training.tp x training.pp x training.context_parallel（%1 x %2 x %3）的倍数，因此至少等于它们的乘积</translation>
    </message>
    <message>
        <source>must be a multiple of training.tp x training.pp x training.context_parallel (%1 x %2 x %3 = %4)</source>
        <translation>必须是 training.tp x training.pp x training.context_parallel（%1 x %2 x %3 = %4）的倍数</translation>
    </message>
    <message>
        <source>must be 0, 1, 2 or 3</source>
        <translation>必须是 0、1、2 或 3</translation>
    </message>
    <message>
        <source>%1 has no %2 peak; it has: %3</source>
        <translation>%1 没有 %2 峰值；它有：%3</translation>
    </message>
    <message>
        <source>adam8bit keeps its states in int8</source>
        <translation>adam8bit 以 int8 保存其状态</translation>
    </message>
    <message>
        <source>must be &quot;fp32&quot; or &quot;none&quot;</source>
        <translation>必须是 &quot;fp32&quot; 或 &quot;none&quot;</translation>
    </message>
    <message>
        <source>must be an integer in [1, 2^53 = %1]</source>
        <translation>必须是 [1, 2^53 = %1] 范围内的整数</translation>
    </message>
    <message>
        <source>must be a number in (0, 1e30]</source>
        <translation>必须是 (0, 1e30] 范围内的数</translation>
    </message>
    <message>
        <source>times the data-parallel size (%1) must be at most 2^53 = %2</source>
        <translation>乘以数据并行规模（%1）后最多为 2^53 = %2</translation>
    </message>
    <message>
        <source>must be a multiple of data.micro_batch x data-parallel size (%1 x %2 = %3; data-parallel = cluster.gpus / (tp x pp x cp)), so that gradient accumulation takes a whole number of micro-batches</source>
        <translation>必须是 data.micro_batch x 数据并行规模（%1 x %2 = %3；数据并行 = cluster.gpus / (tp x pp x cp)）的倍数，这样梯度累积才是整数个微批次</translation>
    </message>
    <message>
        <source>gives %1 micro-batches per step; the interleaved schedule (training.interleave = %2) needs a multiple of training.pp (%3)</source>
        <translation>每步得到 %1 个微批次；交错调度（training.interleave = %2）需要它是 training.pp（%3）的倍数</translation>
    </message>
    <message>
        <source>must be an integer in [0, 2^53 = %1]</source>
        <translation>必须是 [0, 2^53 = %1] 范围内的整数</translation>
    </message>
    <message>
        <source>must be 0 to model.layers (%1): the layers of a stage that full recomputation repeats; 0: all of them</source>
        <translation>必须在 0 到 model.layers（%1）之间：完全重计算时每个阶段重算的层数；0 表示全部层</translation>
    </message>
    <message>
        <source>needs training.sequence_parallel = true: the overlap splits sequence parallelism&apos;s all-gathers and reduce-scatters</source>
        <translation>需要 training.sequence_parallel = true：重叠是把序列并行的 all-gather 和 reduce-scatter 切块进行的</translation>
    </message>
    <message>
        <source>must be 0, or between 1 and model.layers - 1 (%1) for a transformer: at least one layer keeps its activations</source>
        <translation>必须为 0，或对 transformer 取 1 到 model.layers - 1（%1）：至少有一层的激活留在 GPU 上</translation>
    </message>
    <message>
        <source>must be 0 with training.pp &gt; 1: activation offloading runs with one pipeline stage</source>
        <translation>training.pp &gt; 1 时必须为 0：激活卸载只能在单个流水线阶段下运行</translation>
    </message>
    <message>
        <source>must be 0 with training.recompute set: offloaded activations are not recomputed</source>
        <translation>设置了 training.recompute 时必须为 0：被卸载的激活不做重计算</translation>
    </message>
    <message>
        <source>must divide model.moe.experts (%1)</source>
        <translation>必须整除 model.moe.experts（%1）</translation>
    </message>
    <message>
        <source>must be between 1 and model.moe.router_groups (%1), and given with it</source>
        <translation>必须在 1 与 model.moe.router_groups（%1）之间，并与之一同给出</translation>
    </message>
    <message>
        <source>must be a number of seconds in [0, %1]</source>
        <translation>必须是 [0, %1] 内的秒数</translation>
    </message>
    <message>
        <source>must be between 0 and model.layers (%1)</source>
        <translation>必须在 0 到 model.layers (%1) 之间</translation>
    </message>
    <message>
        <source>serving needs a transformer&apos;s dimensions (a preset, hf_config or layers, hidden, heads, vocab) to size its KV cache</source>
        <translation>推理服务需要 transformer 的各维度（预设、hf_config，或 layers、hidden、heads、vocab）来确定 KV 缓存的大小</translation>
    </message>
    <message>
        <source>tp x pp (%1 x %2) must divide cluster.gpus (%3): each replica of the model takes tp x pp GPUs</source>
        <translation>tp x pp（%1 x %2）必须整除 cluster.gpus（%3）：模型的每个副本占用 tp x pp 个 GPU</translation>
    </message>
    <message>
        <source>must divide model.layers (%1) so every stage holds whole layers</source>
        <translation>必须整除 model.layers（%1），使每个流水线阶段持有完整的层</translation>
    </message>
    <message>
        <source>must be 1: the model has no routed experts (model.moe)</source>
        <translation>必须为 1：该模型没有路由专家（model.moe）</translation>
    </message>
    <message>
        <source>must divide inference.tp (%1) and model.moe.experts (%2): the experts are spread over ep GPUs of the tensor-parallel group</source>
        <translation>必须整除 inference.tp（%1）和 model.moe.experts（%2）：专家分布在张量并行组中的 ep 个 GPU 上</translation>
    </message>
    <message>
        <source>needs inference.tp &gt;= 2: the attention is data-parallel over the tp group</source>
        <translation>需要 inference.tp &gt;= 2：注意力在 tp 组内做数据并行</translation>
    </message>
    <message>
        <source>%1 lists no interconnect bandwidth for the sends between stages</source>
        <translation>%1 未列出互连带宽，无法计算流水线阶段之间的发送时间</translation>
    </message>
    <message>
        <source>%1 lists no interconnect bandwidth, so tensor parallelism cannot be timed; use tp 1 or a profile with one</source>
        <translation>%1 未列出互连带宽，无法计算张量并行的时间；请使用 tp 1 或带互连带宽的配置</translation>
    </message>
    <message>
        <source>must be given to search layouts when training.tp x training.pp (%1 x %2) does not divide cluster.gpus (%3): the search keeps the sequences per step, and without it they are micro_batch x data-parallel size of the spec&apos;s own layout</source>
        <translation>当 training.tp x training.pp（%1 x %2）不能整除 cluster.gpus（%3）时，搜索布局必须给出此项：搜索保持每步的序列数不变，不给出时它等于 micro_batch x 规格自身布局的数据并行规模</translation>
    </message>
    <message>
        <source>must be an integer in [0, %1] (0: a static batch; else the clients in flight)</source>
        <translation>必须是 [0, %1] 范围内的整数（0：静态批处理；否则为同时在途的客户端数）</translation>
    </message>
    <message>
        <source>at least the prompt&apos;s %1 tokens without chunked prefill (inference.chunked_prefill): an engine runs a prompt in one step and refuses one longer than its step</source>
        <translation>不开分块预填充（inference.chunked_prefill）时至少为提示的 %1 个 token：引擎在一步中跑完一个提示，比一步长的提示会被拒绝</translation>
    </message>
    <message>
        <source>must be absent unless training.recompute is &quot;selective&quot; (Megatron-Core recomputes modules with --recompute-granularity selective)</source>
        <translation>除非 training.recompute 为 &quot;selective&quot;，否则不能设置（Megatron-Core 只在 --recompute-granularity selective 下按模块重计算）</translation>
    </message>
    <message>
        <source>mla_up_proj needs a model with multi-head latent attention (model.mla)</source>
        <translation>mla_up_proj 需要采用多头潜在注意力（model.mla）的模型</translation>
    </message>
    <message>
        <source>moe_act needs a model with experts (model.moe)</source>
        <translation>moe_act 需要带专家（model.moe）的模型</translation>
    </message>
    <message>
        <source>must be a number in [0, 1e9] per GPU-hour</source>
        <translation>必须是 [0, 1e9] 范围内的数，单位为每 GPU 小时</translation>
    </message>
    <message>
        <source>must divide model.kv_heads (%1): the training frameworks split the key and value heads over the tensor-parallel GPUs, none replicates them</source>
        <translation>必须整除 model.kv_heads（%1）：训练框架把键和值的头切分到张量并行的各 GPU 上，没有一个会复制它们</translation>
    </message>
    <message>
        <source>4-bit training runs Transformer Engine&apos;s NVFP4 recipe (an E4M3 scale per 16 values): use nvfp4</source>
        <translation>4 位训练使用 Transformer Engine 的 NVFP4 方案（每 16 个值一个 E4M3 缩放因子）：请用 nvfp4</translation>
    </message>
    <message>
        <source>NVFP4 training (Transformer Engine) runs on B200, GB200, B300 and GB300; %1 is not one: bf16 or fp8</source>
        <translation>NVFP4 训练（Transformer Engine）只在 B200、GB200、B300 和 GB300 上运行；%1 不在其中：请用 bf16 或 fp8</translation>
    </message>
    <message>
        <source>bf16 under nvfp4 compute: the NVFP4 recipe&apos;s random Hadamard transform takes only bf16 inputs and gradients (Transformer Engine)</source>
        <translation>nvfp4 计算下须为 bf16：NVFP4 方案的随机 Hadamard 变换只接受 bf16 输入和梯度（Transformer Engine）</translation>
    </message>
    <message>
        <source>unset for gpt_fast: it sizes its cache for the batch it is asked for (setup_caches) and has no memory-share setting</source>
        <translation>gpt_fast 下不设置：它按请求的批次大小分配缓存（setup_caches），没有内存份额设置</translation>
    </message>
    <message>
        <source>must be a share of the GPU&apos;s memory in (0, 1], as the engine&apos;s setting takes it (vLLM gpu_memory_utilization, TensorRT-LLM free_gpu_memory_fraction, SGLang mem_fraction_static)</source>
        <translation>必须是 GPU 内存的份额，取值 (0, 1]，与引擎自身的设置相同（vLLM gpu_memory_utilization、TensorRT-LLM free_gpu_memory_fraction、SGLang mem_fraction_static）</translation>
    </message>
    <message>
        <source>1 without training.flash_attention: context parallelism runs its ring inside the fused attention kernels, which never store the scores</source>
        <translation>未开启 training.flash_attention 时必须为 1：上下文并行的环形交换在融合注意力 kernel 中进行，这些 kernel 从不存储注意力分数</translation>
    </message>
</context>
<context>
    <name>tally::cli</name>
    <message>
        <source>error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>Predicted step (performance model; docs/planner.md)</source>
        <translation>预测的单步时间（性能模型；docs/planner.md）</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>内存受限</translation>
    </message>
    <message>
        <source>offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>assumed</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Memory per GPU (GB = 1e9 bytes; GiB = 2^30 bytes, as nvidia-smi shows)</source>
        <translation>每 GPU 内存（GB = 1e9 字节；GiB = 2^30 字节，与 nvidia-smi 显示的相同）</translation>
    </message>
    <message>
        <source>params</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>master</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>ZeRO-3 gather</source>
        <translation>ZeRO-3 聚集</translation>
    </message>
    <message>
        <source>PP buffers</source>
        <translation>PP 缓冲区</translation>
    </message>
    <message>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>能放下</translation>
    </message>
    <message>
        <source>DOES NOT FIT</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>host memory</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>(offloaded, per GPU)</source>
        <translation>（已卸载，每 GPU）</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>FLOPs total</source>
        <translation>FLOPs 总计</translation>
    </message>
    <message>
        <source>Time and cost</source>
        <translation>时间与成本</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>(GPU boards at TDP)</source>
        <translation>（GPU 板卡按 TDP）</translation>
    </message>
    <message>
        <source>(the hardware profile gives no TDP)</source>
        <translation>（硬件配置没有给出 TDP）</translation>
    </message>
    <message>
        <source>How each figure is computed</source>
        <translation>每个数字是如何计算的</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>The built-in default plan (CS336 lecture 2, question 1):</source>
        <translation>内置的默认计划（CS336 第 2 讲，问题 1）：</translation>
    </message>
    <message>
        <source>%1 s hidden behind compute</source>
        <translation>%1 s 隐藏在计算之后</translation>
    </message>
    <message>
        <source>%1 total, %2 active, %3 embedding</source>
        <translation>总计 %1，激活参数 %2，嵌入 %3</translation>
    </message>
    <message>
        <source>of %1 GB: %2</source>
        <translation>共 %1 GB：%2</translation>
    </message>
    <message>
        <source>%1 (6N %2, with attention %3; formula %4)</source>
        <translation>%1（6N %2，含注意力 %3；公式 %4）</translation>
    </message>
    <message>
        <source>%1 model, %2 hardware (HFU %3)</source>
        <translation>模型 %1，硬件 %2（HFU %3）</translation>
    </message>
    <message>
        <source>%1 days (%2 s)</source>
        <translation>%1 天（%2 s）</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 token/s</translation>
    </message>
    <message>
        <source>%1 (%2) x %3, MFU %4 (%5), dense %6 peak %7 FLOP/s</source>
        <translation>%1（%2）x %3，MFU %4（%5），稠密 %6 峰值 %7 FLOP/s</translation>
    </message>
    <message>
        <source>launch gaps</source>
        <translation>启动间隙</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确度</translation>
    </message>
    <message>
        <source>weight GEMMs</source>
        <translation>权重 GEMM</translation>
    </message>
    <message>
        <source>(compute %1, weights read %2 = %3)</source>
        <translation>（计算 %1，读权重 %2 = %3）</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>(compute %1, KV cache %2 = %3)</source>
        <translation>（计算 %1，KV 缓存 %2 = %3）</translation>
    </message>
    <message>
        <source>all-reduces</source>
        <translation>all-reduce</translation>
    </message>
    <message>
        <source>(%1 of %2 B; latency %3, bandwidth %4)</source>
        <translation>（%1 次，每次 %2 B；延迟 %3，带宽 %4）</translation>
    </message>
    <message>
        <source>small kernels</source>
        <translation>小 kernel</translation>
    </message>
    <message>
        <source>Serving %1 on %2 x %3 (replicas: %4 of tp %5)</source>
        <translation>在 %2 x %3 上部署 %1（%4 个副本，每个 tp %5）</translation>
    </message>
    <message>
        <source>Batch %1 sequences, prompt %2 + output %3 tokens; weights %4, KV cache %5; GEMMs in %6, %7 attention</source>
        <translation>批次 %1 个序列，提示 %2 + 输出 %3 个 token；权重 %4，KV 缓存 %5；GEMM 用 %6，%7 注意力</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>KV per token</source>
        <translation>每 token KV</translation>
    </message>
    <message>
        <source>%1 bytes (%2 per GPU)</source>
        <translation>%1 字节（每 GPU %2）</translation>
    </message>
    <message>
        <source>max batch</source>
        <translation>最大批次</translation>
    </message>
    <message>
        <source>%1 (at %2 tokens of context)</source>
        <translation>%1（上下文 %2 个 token 时）</translation>
    </message>
    <message>
        <source>Engine %1: CUDA graphs up to batch %2, %3 small kernels a layer, %4 attention, %5 all-reduce</source>
        <translation>引擎 %1：批次不超过 %2 时用 CUDA graph，每层 %3 个小 kernel，%4 注意力，%5 all-reduce</translation>
    </message>
    <message>
        <source>One prefill pass (per GPU)</source>
        <translation>一次预填充（每 GPU）</translation>
    </message>
    <message>
        <source>Decode step at the final context (per GPU)</source>
        <translation>最终上下文下的解码单步（每 GPU）</translation>
    </message>
    <message>
        <source>Continuous batching at concurrency %1 (%2 prefill, %3 tokens a step)</source>
        <translation>并发 %1 下的连续批处理（%2预填充，每步 %3 个 token）</translation>
    </message>
    <message>
        <source>chunked</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>separate</source>
        <translation>单独</translation>
    </message>
    <message>
        <source>time to first token</source>
        <translation>首 token 时间</translation>
    </message>
    <message>
        <source>inter-token latency</source>
        <translation>token 间延迟</translation>
    </message>
    <message>
        <source>request end to end</source>
        <translation>请求端到端</translation>
    </message>
    <message>
        <source>throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>%1 output tokens/s (%2 requests/s)</source>
        <translation>%1 输出 token/s（%2 请求/s）</translation>
    </message>
    <message>
        <source>Static batch: latency and throughput</source>
        <translation>静态批处理：延迟与吞吐量</translation>
    </message>
    <message>
        <source>(the batch&apos;s prefill)</source>
        <translation>（整批的预填充）</translation>
    </message>
    <message>
        <source>decode step</source>
        <translation>解码单步</translation>
    </message>
    <message>
        <source>per sequence</source>
        <translation>每个序列</translation>
    </message>
    <message>
        <source>whole deployment</source>
        <translation>整个部署</translation>
    </message>
    <message>
        <source>%1 output tokens/s</source>
        <translation>%1 输出 token/s</translation>
    </message>
    <message>
        <source>%1 per million output tokens</source>
        <translation>每百万输出 token %1</translation>
    </message>
    <message>
        <source>(no price: set cluster.price_per_gpu_hour)</source>
        <translation>（没有价格：请设置 cluster.price_per_gpu_hour）</translation>
    </message>
    <message>
        <source>critical batch</source>
        <translation>临界批次</translation>
    </message>
    <message>
        <source>(decode GEMMs compute-bound from here)</source>
        <translation>（从此起解码 GEMM 计算受限）</translation>
    </message>
    <message>
        <source>(decode GEMMs stay memory-bound)</source>
        <translation>（解码 GEMM 始终内存受限）</translation>
    </message>
    <message>
        <source>a number of requests per second &gt; 0</source>
        <translation>一个 &gt; 0 的每秒请求数</translation>
    </message>
    <message>
        <source>Largest batch on %1 (tp %2) at %3 tokens of context: %4 sequences</source>
        <translation>%1（tp %2）上、上下文 %3 个 token 时放得下的最大批次：%4 个序列</translation>
    </message>
    <message>
        <source>weights + batch x context x KV per token per GPU + activations = %1 GB of %2 GB</source>
        <translation>权重 + 批次 x 上下文 x 每 GPU 每 token KV + 激活值 = %1 GB，共 %2 GB</translation>
    </message>
    <message>
        <source>a readable training log file</source>
        <translation>一个可读的训练日志文件</translation>
    </message>
    <message>
        <source>a readable training log file (reading failed)</source>
        <translation>一个可读的训练日志文件（读取失败）</translation>
    </message>
    <message>
        <source>--step-s SECONDS (the measured step) or --log FILE (a training log)</source>
        <translation>--step-s SECONDS（实测单步时间）或 --log FILE（训练日志）</translation>
    </message>
    <message>
        <source>Calibrated %1 (%2) on %3</source>
        <translation>已根据 %3 校准 %1（%2）</translation>
    </message>
    <message>
        <source>the spec</source>
        <translation>该计划</translation>
    </message>
    <message>
        <source>predicted step</source>
        <translation>预测单步</translation>
    </message>
    <message>
        <source>%1 s (the model, uncalibrated)</source>
        <translation>%1 s（模型，未校准）</translation>
    </message>
    <message>
        <source>measured step</source>
        <translation>实测单步</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>%1 / %2 = %3 (every step predicted on the profile is divided by it)</source>
        <translation>%1 / %2 = %3（在该配置上预测的每个单步时间都除以它）</translation>
    </message>
    <message>
        <source>%1 (median) -&gt; step = tokens per step per GPU / tokens/s per GPU</source>
        <translation>%1（中位数）-&gt; 单步 = 每 GPU 每步 token 数 / 每 GPU token/s</translation>
    </message>
    <message>
        <source>stored in</source>
        <translation>存入</translation>
    </message>
    <message>
        <source>profile %1 (%2, %3) in %4</source>
        <translation>%4 中的配置 %1（%2，%3）</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>use it</source>
        <translation>用法</translation>
    </message>
    <message>
        <source>%1 in a spec</source>
        <translation>在计划文件中写 %1</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>以下之一：%1</translation>
    </message>
    <message>
        <source>a readable file</source>
        <translation>一个可读的文件</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>line %1: </source>
        <translation>第 %1 行：</translation>
    </message>
    <message>
        <source>an integer &gt;= 1</source>
        <translation>一个 &gt;= 1 的整数</translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation>%1 按 %2读取</translation>
    </message>
    <message>
        <source>read</source>
        <translation>已读取</translation>
    </message>
    <message>
        <source>ignored (no bearing on the plan)</source>
        <translation>已忽略（与计划无关）</translation>
    </message>
    <message>
        <source>not read (unknown to Tally)</source>
        <translation>未读取（Tally 不认识）</translation>
    </message>
    <message>
        <source>assumed:</source>
        <translation>假设：</translation>
    </message>
    <message>
        <source>time or cost</source>
        <translation>time 或 cost</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>该模型</translation>
    </message>
    <message>
        <source>%1 layouts of %2 on %3 x %4 (global batch %5): %6 fit</source>
        <translation>%2 在 %3 x %4 上的 %1 种布局（全局批次 %5）：%6 种放得下</translation>
    </message>
    <message>
        <source>step %1 s  MFU %2  %3 GB</source>
        <translation>单步 %1 s  MFU %2  %3 GB</translation>
    </message>
    <message>
        <source>  cost %1</source>
        <translation>  成本 %1</translation>
    </message>
    <message>
        <source>a number in (0, 1e6]</source>
        <translation>(0, 1e6] 范围内的数</translation>
    </message>
    <message>
        <source>No cluster of up to %1 x %2 trains it in %3 days</source>
        <translation>最多 %1 x %2 的集群都无法在 %3 天内训练完</translation>
    </message>
    <message>
        <source>%1 x %2 train it in %3 days (allowed %4): %5  step %6 s  MFU %7</source>
        <translation>%1 x %2 在 %3 天内训练完（允许 %4 天）：%5  单步 %6 s  MFU %7</translation>
    </message>
    <message>
        <source>device: %1; fractions are of %2 (%3)</source>
        <translation>设备：%1；比例相对于 %2（%3）</translation>
    </message>
    <message>
        <source>, the catalog entry matching its name</source>
        <translation>，即名称与之匹配的目录条目</translation>
    </message>
    <message>
        <source>device: %1; no catalog profile matches its name, so no fractions of a promised peak are shown (choose one with --profile ID)</source>
        <translation>设备：%1；没有名称与之匹配的目录配置，因此不显示相对标称峰值的比例（可用 --profile ID 指定）</translation>
    </message>
    <message>
        <source>tally-probe refused its arguments: %1</source>
        <translation>tally-probe 拒绝了它的参数：%1</translation>
    </message>
    <message>
        <source>%1; nothing was measured</source>
        <translation>%1；什么也没有测量</translation>
    </message>
    <message>
        <source>%1; nothing was measured. To measure this machine&apos;s CPU and memory instead: tally probe --backend cpu</source>
        <translation>%1；什么也没有测量。要改为测量本机的 CPU 和内存：tally probe --backend cpu</translation>
    </message>
    <message>
        <source>interrupted; the results that arrived are kept</source>
        <translation>已中断；已收到的结果会保留</translation>
    </message>
    <message>
        <source>saved as probe run %1 (%2) in %3</source>
        <translation>已保存为 %3 中的探测运行 %1（%2）</translation>
    </message>
    <message>
        <source>make a hardware profile with these GEMM times:</source>
        <translation>用这些 GEMM 时间生成硬件配置：</translation>
    </message>
    <message>
        <source>make a hardware profile from it:</source>
        <translation>由它生成硬件配置：</translation>
    </message>
    <message>
        <source>%1 backend on %2</source>
        <translation>%1 后端，运行于 %2</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source> (quick)</source>
        <translation>（快速）</translation>
    </message>
    <message>
        <source>Measured: no validated, passed result to draw.</source>
        <translation>实测：没有通过验证的结果可画。</translation>
    </message>
    <message>
        <source>Measured roofs beside %1 (%2)</source>
        <translation>实测的屋顶，与 %1（%2）对照</translation>
    </message>
    <message>
        <source>Measured roofs</source>
        <translation>实测的屋顶</translation>
    </message>
    <message>
        <source>Measured points (% of the promised peak, bandwidth, and roof at the point&apos;s intensity)</source>
        <translation>实测点（占标称峰值、带宽以及该点算术强度下屋顶的 %）</translation>
    </message>
    <message>
        <source>Measured points</source>
        <translation>实测点</translation>
    </message>
    <message>
        <source>%1 has no %2 peak; it has: %3</source>
        <translation>%1 没有 %2 峰值；它有：%3</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>batch %1 x seq %2 in %3, flash attention %4</source>
        <translation>批次 %1 x 序列 %2，%3，flash attention %4</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>operation</source>
        <translation>运算</translation>
    </message>
    <message>
        <source>count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>bound</source>
        <translation>受限于</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Per step at roofline speed (operations one after another):</source>
        <translation>按 roofline 速度计的每步（运算依次执行）：</translation>
    </message>
    <message>
        <source>%1 FLOPs, %2 bytes, %3 s (%4% of it memory-bound)</source>
        <translation>%1 FLOPs，%2 字节，%3 s（其中 %4% 内存受限）</translation>
    </message>
    <message>
        <source>one of the built-in ids: %1</source>
        <translation>内置 id 之一：%1</translation>
    </message>
    <message>
        <source>form factor</source>
        <translation>外形规格</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>interconnect</source>
        <translation>互连</translation>
    </message>
    <message>
        <source>%1 (%2 GB/s per direction)</source>
        <translation>%1（每方向 %2 GB/s）</translation>
    </message>
    <message>
        <source>not published</source>
        <translation>未公布</translation>
    </message>
    <message>
        <source>dense peaks (TFLOP/s) and ridge (FLOP/byte):</source>
        <translation>稠密峰值（TFLOP/s）与加速器强度（FLOP/byte）：</translation>
    </message>
    <message>
        <source>printed</source>
        <translation>数据手册</translation>
    </message>
    <message>
        <source>verification</source>
        <translation>核实</translation>
    </message>
    <message>
        <source>notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>sources:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source> = %1% of peak</source>
        <translation> = 峰值的 %1%</translation>
    </message>
    <message>
        <source>a number such as 1e-8, 65504, -448.5, inf or nan</source>
        <translation>一个数，例如 1e-8、65504、-448.5、inf 或 nan</translation>
    </message>
    <message>
        <source>Probe run %1</source>
        <translation>探测运行 %1</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>bf16 peak</source>
        <translation>bf16 峰值</translation>
    </message>
    <message>
        <source>vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <source>(ridge %1 FLOP/byte)</source>
        <translation>（加速器强度 %1 FLOP/byte）</translation>
    </message>
    <message>
        <source>price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>%1 per GPU-hour</source>
        <translation>每 GPU 小时 %1</translation>
    </message>
    <message>
        <source>probe run</source>
        <translation>探测运行</translation>
    </message>
    <message>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>the id of a profile (built-in: %1; stored ones: tally profiles list)</source>
        <translation>一个配置的 id（内置：%1；已保存的：tally profiles list）</translation>
    </message>
    <message>
        <source>a readable profile file (JSON)</source>
        <translation>一个可读的配置文件（JSON）</translation>
    </message>
    <message>
        <source>imported %1 profile %2 (%3) into %4</source>
        <translation>已将 %1 配置 %2（%3）导入 %4</translation>
    </message>
    <message>
        <source>added %1 profile %2 (%3) to %4</source>
        <translation>已将 %1 配置 %2（%3）添加到 %4</translation>
    </message>
    <message>
        <source>the id of a stored profile</source>
        <translation>一个已保存配置的 id</translation>
    </message>
    <message>
        <source>saved profile %1 (%2)</source>
        <translation>已保存配置 %1（%2）</translation>
    </message>
    <message>
        <source>removed profile %1</source>
        <translation>已删除配置 %1</translation>
    </message>
    <message>
        <source>the name or id of a saved plan (tally plans list)</source>
        <translation>一个已保存计划的名称或 id（tally plans list）</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>plan %1: %2</source>
        <translation>计划 %1：%2</translation>
    </message>
    <message>
        <source>created %1, updated %2</source>
        <translation>创建于 %1，更新于 %2</translation>
    </message>
    <message>
        <source>saved plan %1 (%2) in %3</source>
        <translation>已将计划 %1（%2）保存到 %3</translation>
    </message>
    <message>
        <source>removed plan %1 (%2)</source>
        <translation>已删除计划 %1（%2）</translation>
    </message>
    <message>
        <source>the id of a stored probe run (tally probes list)</source>
        <translation>一次已保存的探测运行的 id（tally probes list）</translation>
    </message>
    <message>
        <source>probe run %1: %2 on %3 (%4), %5 to %6, %7</source>
        <translation>探测运行 %1：%2，运行于 %3（%4），%5 至 %6，%7</translation>
    </message>
    <message>
        <source>imported %1 (%2, %3 results%4) as probe run %5 in %6</source>
        <translation>已将 %1（%2，%3 个结果%4）导入为 %6 中的探测运行 %5</translation>
    </message>
    <message>
        <source> from %1</source>
        <translation>，来自 %1</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>profile</source>
        <translation>硬件配置</translation>
    </message>
    <message>
        <source>compute dtype</source>
        <translation>计算数据类型</translation>
    </message>
    <message>
        <source>dense peak</source>
        <translation>稠密峰值</translation>
    </message>
    <message>
        <source>ridge FLOP/byte</source>
        <translation>加速器强度 FLOP/byte</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>NO</source>
        <translation>否</translation>
    </message>
    <message>
        <source>memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>price/GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <source>%1: not evaluated: %2</source>
        <translation>%1：未评估：%2</translation>
    </message>
    <message>
        <source>%1: has no dense %2 peak; timed at its %3 peak instead</source>
        <translation>%1：没有稠密 %2 峰值；改按其 %3 峰值计时</translation>
    </message>
    <message>
        <source>Largest model on %1 x %2 (%3): %4 parameters</source>
        <translation>%1 x %2 上能训练的最大模型（%3）：%4 个参数</translation>
    </message>
    <message>
        <source>params, grads, optimizer state and activations</source>
        <translation>参数、梯度、优化器状态和激活值</translation>
    </message>
    <message>
        <source>model state only, activations not counted</source>
        <translation>只计模型状态，不计激活值</translation>
    </message>
    <message>
        <source>%1 = %2 elements x %3 bytes (%4) = %5 bytes = %6 GB = %7 GiB</source>
        <translation>%1 = %2 个元素 x %3 字节（%4）= %5 字节 = %6 GB = %7 GiB</translation>
    </message>
    <message>
        <source>CS336 lecture 2: memory = number of values x bytes per value; GB = 1e9 bytes, GiB = 2^30 bytes</source>
        <translation>CS336 第 2 讲：内存 = 数值个数 x 每个数值的字节数；GB = 1e9 字节，GiB = 2^30 字节</translation>
    </message>
    <message>
        <source>%1 params (%2 active)</source>
        <translation>%1 个参数（激活参数 %2）</translation>
    </message>
    <message>
        <source>format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>bits</source>
        <translation>位数</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>min normal</source>
        <translation>最小正规数</translation>
    </message>
    <message>
        <source>min subnorm</source>
        <translation>最小次正规数</translation>
    </message>
    <message>
        <source>overflow</source>
        <translation>上溢</translation>
    </message>
    <message>
        <source>  %1 becomes</source>
        <translation>  %1 变为</translation>
    </message>
    <message>
        <source>Block formats: nvfp4 = E2M1 x one E4M3 scale per 16 values (4.5 bits); mxfp4 = E2M1 x one E8M0 scale per 32 values (4.25 bits).</source>
        <translation>块格式：nvfp4 = E2M1 x 每 16 个数值一个 E4M3 缩放因子（4.5 位）；mxfp4 = E2M1 x 每 32 个数值一个 E8M0 缩放因子（4.25 位）。</translation>
    </message>
    <message>
        <source>no published %1 %2 run to compare with</source>
        <translation>没有可比较的已公布 %1 %2 运行</translation>
    </message>
    <message>
        <source>MoE run</source>
        <translation>MoE 运行</translation>
    </message>
    <message>
        <source>MoE runs</source>
        <translation>MoE 运行</translation>
    </message>
    <message>
        <source>dense run</source>
        <translation>稠密模型运行</translation>
    </message>
    <message>
        <source>dense runs</source>
        <translation>稠密模型运行</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>output tokens/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>±%1% on %2 published figures (worst %3%, mean signed %4%)</source>
        <translation>在 %2 个已公布数据上误差 ±%1%（最差 %3%，带符号平均 %4%）</translation>
    </message>
    <message>
        <source>no published figure to compare with</source>
        <translation>没有已公布的数据可供比较</translation>
    </message>
    <message>
        <source>continuous batching</source>
        <translation>连续批处理</translation>
    </message>
    <message>
        <source>static batches</source>
        <translation>静态批</translation>
    </message>
    <message>
        <source>Accuracy: no published %1 %2 run with %3 to compare with; these predictions are unchecked against measurements</source>
        <translation>准确度：没有已公布的 %1 %2 %3运行可供比较；这些预测未经实测检验</translation>
    </message>
    <message>
        <source>Accuracy on published %1 %2 runs with %3 (error = predicted / measured - 1)</source>
        <translation>在已公布的 %1 %2 %3运行上的准确度（误差 = 预测 / 实测 - 1）</translation>
    </message>
    <message>
        <source>Decode attention: the KV cache read once per query head, a thread block per query head (inference.decode_attention per_query_head: TensorRT-LLM&apos;s masked MHA kernel where XQA does not apply)</source>
        <translation>解码注意力：每个查询头各读一次 KV 缓存，每个查询头一个线程块（inference.decode_attention per_query_head：XQA 不适用时 TensorRT-LLM 的 masked MHA kernel）</translation>
    </message>
    <message>
        <source>(engine&apos;s norms, rotary, KV write, MLP activation, sampling: their bytes at the bandwidth, each at least a kernel&apos;s floor)</source>
        <translation>（引擎的归一化、旋转位置编码、KV 写入、MLP 激活、采样：按各自的字节数与带宽计，每个至少一个 kernel 的下限）</translation>
    </message>
    <message>
        <source>Host time per step: %1 each prefill pass and decode step waits for (inference.host_step_s; the engine&apos;s own: %2)</source>
        <translation>每步主机时间：每次预填充和每个解码步都要等待 %1（inference.host_step_s；引擎自身的值：%2）</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>the KV cache holds %1 sequences: %1 run at once, the other %2 requests wait %3 on average (part of the time to first token)</source>
        <translation>KV 缓存能容纳 %1 个序列：同时运行 %1 个，其余 %2 个请求平均等待 %3（计入首 token 时间）</translation>
    </message>
    <message>
        <source>Concurrency sweep (continuous batching; each client sends its next request when its last completes)</source>
        <translation>并发扫描（连续批处理；每个客户端在上一个请求完成后发出下一个请求）</translation>
    </message>
    <message>
        <source>concurrency</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>在途</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>首 token</translation>
    </message>
    <message>
        <source>ITL</source>
        <translation>token 间</translation>
    </message>
    <message>
        <source>end to end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>admitted</source>
        <translation>准入</translation>
    </message>
    <message>
        <source>%1: the engine&apos;s KV cache (%2) holds that many; continuous batching queues the rest</source>
        <translation>%1：引擎的 KV 缓存（%2）能容纳这么多；连续批处理让其余请求排队</translation>
    </message>
    <message>
        <source>prefill wait</source>
        <translation>预填充等待</translation>
    </message>
    <message>
        <source>%1 for the step under way and the prompts ahead (part of the time to first token)</source>
        <translation>%1，等待进行中的一步和排在前面的提示（计入首 token 时间）</translation>
    </message>
    <message>
        <source>Attention: a sliding window of %1 positions in %2 of the %3 layers, which keep only that much KV cache</source>
        <translation>注意力：%3 层中有 %2 层使用 %1 个位置的滑动窗口，这些层只保留这么多 KV 缓存</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>a sliding window of %1 positions in %2 of the %3 layers; the others attend to the whole sequence</source>
        <translation>%3 层中有 %2 层使用 %1 个位置的滑动窗口；其余层关注整个序列</translation>
    </message>
    <message>
        <source>a sliding window of %1 positions in all %2 layers</source>
        <translation>全部 %2 层都使用 %1 个位置的滑动窗口</translation>
    </message>
    <message>
        <source>Attention: a sliding window of %1 positions in all %2 layers, which keep only that much KV cache</source>
        <translation>注意力：全部 %2 层都使用 %1 个位置的滑动窗口，只保留这么多 KV 缓存</translation>
    </message>
    <message>
        <source>%1 x %2 train it in %3 days (allowed %4) at the assumed MFU %5: %6  (predicted step %7 s, MFU %8)</source>
        <translation>%1 x %2 按假定的 MFU %5 在 %3 天内训练完（允许 %4 天）：%6  （预测单步 %7 s，MFU %8）</translation>
    </message>
    <message>
        <source>tensor parallel %1 (%2 GPUs a replica) holds %3 sequences</source>
        <translation>张量并行 %1（每个副本 %2 个 GPU）可容纳 %3 个序列</translation>
    </message>
    <message>
        <source>no tensor parallel within a node of %1 GPUs holds one sequence</source>
        <translation>在 %1 个 GPU 的节点内，没有哪种张量并行能容纳一个序列</translation>
    </message>
    <message>
        <source>Static batch: latency and throughput, were it to fit (it does not: see the warnings)</source>
        <translation>静态批处理：假如放得下时的延迟与吞吐量（实际放不下：见警告）</translation>
    </message>
    <message>
        <source>TP comm</source>
        <translation>TP 通信</translation>
    </message>
    <message>
        <source>PP comm</source>
        <translation>PP 通信</translation>
    </message>
    <message>
        <source>PP bubble</source>
        <translation>PP 气泡</translation>
    </message>
    <message>
        <source>DP exposed</source>
        <translation>DP 通信未重叠</translation>
    </message>
    <message>
        <source>EP comm</source>
        <translation>EP 通信</translation>
    </message>
    <message>
        <source>CP comm</source>
        <translation>CP 通信</translation>
    </message>
    <message>
        <source>NCCL SMs</source>
        <translation>NCCL SM</translation>
    </message>
    <message>
        <source>DP comm</source>
        <translation>DP 通信</translation>
    </message>
    <message>
        <source>uncalibrated</source>
        <translation>未校准</translation>
    </message>
    <message>
        <source>/ efficiency %1: %2</source>
        <translation>/ 效率 %1：%2</translation>
    </message>
    <message>
        <source>calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>efficiency %1 = %2 s predicted / %3 s measured; %4</source>
        <translation>效率 %1 = 预测 %2 s / 实测 %3 s；%4</translation>
    </message>
    <message>
        <source>A subcommand is required</source>
        <translation>需要一个子命令</translation>
    </message>
    <message>
        <source>%1 is required</source>
        <translation>必须给出 %1</translation>
    </message>
    <message>
        <source>Could not convert: %1 = %2</source>
        <translation>无法转换：%1 = %2</translation>
    </message>
    <message>
        <source>Arguments that were not expected: %1</source>
        <translation>多余的参数：%1</translation>
    </message>
    <message>
        <source>%1 requires %2</source>
        <translation>%1 需要同时给出 %2</translation>
    </message>
    <message>
        <source>%1 excludes %2</source>
        <translation>%1 不能与 %2 同时给出</translation>
    </message>
    <message>
        <source>%1: %2 is not in the range %3 to %4</source>
        <translation>%1：%2 不在 %3 到 %4 的范围内</translation>
    </message>
    <message>
        <source>%1: %2 is not one of %3</source>
        <translation>%1：%2 不是 %3 之一</translation>
    </message>
    <message>
        <source>%1: must be en or zh_CN</source>
        <translation>%1：必须是 en 或 zh_CN</translation>
    </message>
    <message>
        <source>%1: %2 required %3 missing</source>
        <translation>%1：缺少 %2 个 %3 值</translation>
    </message>
    <message>
        <source>Run with %1 for more information.</source>
        <translation>加上 %1 运行可查看更多信息。</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>%1 s (%2)</source>
        <translation>%1 s（%2）</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <source> = %1 x scale %2</source>
        <translation> = %1 x 缩放因子 %2</translation>
    </message>
    <message>
        <source>saturate</source>
        <translation>饱和</translation>
    </message>
    <message>
        <source>infinity</source>
        <translation>无穷大</translation>
    </message>
    <message>
        <source>mem GB</source>
        <translation>内存 GB</translation>
    </message>
    <message>
        <source>ridge</source>
        <translation>加速器强度</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>builtin</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>a comma-separated list of integers from 1 to %1 (requests in flight per replica), e.g. 1,16,64,256</source>
        <translation>以逗号分隔的 1 到 %1 之间的整数列表（每个副本同时在途的请求数），例如 1,16,64,256</translation>
    </message>
    <message>
        <source>either --concurrency or --request-rate, not both (the rate sets the concurrency)</source>
        <translation>--concurrency 或 --request-rate 二选一，不能同时给出（请求速率决定并发数）</translation>
    </message>
    <message>
        <source>an integer from 1 to %1 (requests in flight per replica)</source>
        <translation>一个 1 到 %1 之间的整数（每个副本同时在途的请求数）</translation>
    </message>
    <message>
        <source>a file other than %1 (%2), which this command reads: writing there would replace it</source>
        <translation>一个不同于 %1（%2）的文件：此命令要读取它，写到那里会把它覆盖</translation>
    </message>
    <message>
        <source>note:</source>
        <translation>注意：</translation>
    </message>
    <message>
        <source>a profile no saved plan runs on; the saved plan %1 does: pick another GPU for it first, or give --force to remove the profile anyway</source>
        <translation>一个没有已保存计划使用的配置；已保存的计划 %1 在用它：请先为它选择另一个 GPU，或加上 --force 仍然删除该配置</translation>
    </message>
    <message>
        <source>a profile no saved plan runs on; %1 saved plans do (%2): pick another GPU for them first, or give --force to remove the profile anyway</source>
        <translation>一个没有已保存计划使用的配置；有 %1 个已保存计划在用它（%2）：请先为它们选择另一个 GPU，或加上 --force 仍然删除该配置</translation>
    </message>
    <message>
        <source>fewer than the log&apos;s %1 timing records: the default drops the first %2 as warm-up; give --skip-records 0 to keep them all</source>
        <translation>少于日志中的 %1 条计时记录：默认丢弃前 %2 条作为预热；用 --skip-records 0 保留全部</translation>
    </message>
    <message>
        <source>a name no other profile has (profile %1 has this one, the default for a new profile made from %2); give one with --name</source>
        <translation>一个其他配置都没有用过的名称（配置 %1 已使用此名称，它是由 %2 新建配置时的默认名）；用 --name 另起一个</translation>
    </message>
    <message>
        <source>token budget</source>
        <translation>token 预算</translation>
    </message>
    <message>
        <source>%1 sequences keep running within max_batched_tokens %2; continuous batching queues the rest</source>
        <translation>在 max_batched_tokens %2 之内可持续运行 %1 个序列；连续批处理让其余请求排队</translation>
    </message>
    <message>
        <source>the token budget of %4 a step keeps %1 sequences running: the other %2 requests wait %3 on average (part of the time to first token)</source>
        <translation>每步 %4 个 token 的预算可持续运行 %1 个序列：其余 %2 个请求平均等待 %3（计入首 token 时间）</translation>
    </message>
    <message>
        <source>a name that is not empty (a profile keeps one)</source>
        <translation>不为空的名称（配置必须有名称）</translation>
    </message>
    <message>
        <source>at least one of --name, --vendor, --notes, --memory-bytes, --bandwidth-bytes-per-s, --tdp-w, --price-per-gpu-hour, --peak</source>
        <translation>--name、--vendor、--notes、--memory-bytes、--bandwidth-bytes-per-s、--tdp-w、--price-per-gpu-hour、--peak 中至少一个</translation>
    </message>
    <message>
        <source>a name no other plan has (plan %1 has it), or --replace to overwrite that plan</source>
        <translation>一个其他计划都没有用过的名称（计划 %1 已使用它），或用 --replace 覆盖那个计划</translation>
    </message>
    <message>
        <source>%1: got &quot;%2&quot;; a whole number</source>
        <translation>%1：给出的是 &quot;%2&quot;；需要一个整数</translation>
    </message>
    <message>
        <source>%1: got &quot;%2&quot;; a number</source>
        <translation>%1：给出的是 &quot;%2&quot;；需要一个数</translation>
    </message>
    <message>
        <source>the run ends without a done event (the probe was stopped, or the file was cut short): stored as failed, with the results that arrived</source>
        <translation>这次运行没有 done 事件（探测被中止，或文件被截断）：按失败保存，保留已到达的结果</translation>
    </message>
    <message>
        <source>at most %1 requests/s: what the engine serves with as many sequences running as its KV cache and its token budget allow</source>
        <translation>至多 %1 请求/s：引擎在其 KV 缓存和 token 预算允许的最多运行序列数下的服务速率</translation>
    </message>
    <message>
        <source>%1 (no %2)</source>
        <translation>%1（没有 %2）</translation>
    </message>
    <message>
        <source>%1 of %2 with the KV caches of %3 requests in flight, each at its full context</source>
        <translation>%1 / %2，含 %3 个在途请求的 KV 缓存，每个按完整上下文计</translation>
    </message>
    <message>
        <source>a measured step time as a decimal number of seconds, &gt; 0 (e.g. 12.5)</source>
        <translation>一个实测的单步时间，用十进制秒数表示，&gt; 0（例如 12.5）</translation>
    </message>
    <message>
        <source>a rank &gt;= 0 whose lines the log holds</source>
        <translation>一个 &gt;= 0、且日志中有其记录行的 rank</translation>
    </message>
    <message>
        <source>time from</source>
        <translation>时间依据</translation>
    </message>
    <message>
        <source>a probe run whose status is ok: probe run %1 (%2%3, started %4) is failed, with %5 results: it stopped before its end or a test failed. Add --allow-failed-run to make the profile from the passed, validated results it has</source>
        <translation>一次状态为 ok 的探测运行：探测运行 %1（%2%3，开始于 %4）已失败，有 %5 个结果：它在结束前停止了，或有测试失败。加上 --allow-failed-run，即可用它已通过验证的结果生成配置</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation>，在 %1 上</translation>
    </message>
    <message>
        <source>removed probe run %1 (%2%3, started %4, %5, %6 results) from %7</source>
        <translation>已从 %7 删除探测运行 %1（%2%3，开始于 %4，%5，%6 个结果）</translation>
    </message>
    <message>
        <source>this file completes probe run %1, which was stored with %2 results (status %3): it took the %4 results it lacked and the file&apos;s status, %5</source>
        <translation>这个文件补全了探测运行 %1（保存时有 %2 个结果，状态 %3）：它补上了缺少的 %4 个结果，并采用文件的状态 %5</translation>
    </message>
    <message>
        <source>the assumed MFU %1 sets the time below; at this predicted step the run would take %2 days (%3 s)</source>
        <translation>下面的时间由假设的 MFU %1 决定；按这个预测的单步时间，训练需要 %2 天（%3 s）</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>with the model state spread over all %1 GPUs (training.zero 3) and no fp32 master copy (training.master_dtype &quot;none&quot;), as CS336 lecture 2 counts: %2 parameters</source>
        <translation>若把模型状态分摊到全部 %1 张 GPU 上（training.zero 3）且不保留 fp32 主权重副本（training.master_dtype &quot;none&quot;），即 CS336 第 2 讲的算法：%2 个参数</translation>
    </message>
    <message>
        <source>got %1; a whole number &gt;= %2</source>
        <translation>给出的是 %1；需要一个 &gt;= %2 的整数</translation>
    </message>
    <message>
        <source>an existing workspace file: there is none at this path, so cluster.gpu &quot;%1&quot; (no built-in GPU) is not found</source>
        <translation>一个已存在的工作区文件：这个路径下没有，因此找不到 cluster.gpu &quot;%1&quot;（不是内置 GPU）</translation>
    </message>
    <message>
        <source>%1 is not a command of %2; one of: %3</source>
        <translation>%1 不是 %2 的命令；可用的命令：%3</translation>
    </message>
    <message>
        <source>calibrated again; its notes, price and TDP kept</source>
        <translation>重新校准，保留其备注、价格和 TDP</translation>
    </message>
    <message>
        <source>a test&apos;s rows end without nccl-tests&apos; summary (&quot;# Avg bus bandwidth&quot;): it was stopped or the file was cut short, and its largest sizes are missing; stored as failed, with the rows that arrived (import the whole log to complete it)</source>
        <translation>某项测试的结果行之后没有 nccl-tests 的汇总（&quot;# Avg bus bandwidth&quot;）：测试被中止或文件被截断，最大的几个尺寸缺失；按失败保存，保留已到达的行（导入完整日志即可补全）</translation>
    </message>
    <message>
        <source>scale-up</source>
        <translation>纵向扩展</translation>
    </message>
    <message>
        <source>%1 per GPU per direction%2</source>
        <translation>每 GPU 每方向 %1%2</translation>
    </message>
    <message>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>%1 GPUs a scale-up domain</source>
        <translation>一个纵向扩展域 %1 块 GPU</translation>
    </message>
    <message>
        <source>scale-out</source>
        <translation>横向扩展</translation>
    </message>
    <message>
        <source>%1 per GPU per direction</source>
        <translation>每 GPU 每方向 %1</translation>
    </message>
    <message>
        <source>host link</source>
        <translation>主机链路</translation>
    </message>
    <message>
        <source>no published %1 run on this GPU to compare with</source>
        <translation>没有可比较的、在这种 GPU 上的已公布 %1 运行</translation>
    </message>
    <message>
        <source> (the model&apos;s before calibration)</source>
        <translation>（为校准前模型的误差）</translation>
    </message>
    <message>
        <source>positive integers separated by x or commas, e.g. 4x8</source>
        <translation>用 x 或逗号分隔的正整数，例如 4x8</translation>
    </message>
    <message>
        <source>dp %1 x tp %2 x pp %3 x cp %4</source>
        <translation>dp %1 x tp %2 x pp %3 x cp %4</translation>
    </message>
    <message>
        <source>dp %1 x tp %2 x pp %3</source>
        <translation>dp %1 x tp %2 x pp %3</translation>
    </message>
    <message>
        <source>; experts over ep %1 x expert tp %2</source>
        <translation>；专家分布在 ep %1 x 专家 tp %2 上</translation>
    </message>
    <message>
        <source>; global batch %1 = micro-batch %2 x dp %3 x accumulation %4; ZeRO-%5</source>
        <translation>；全局批次 %1 = 微批次 %2 x dp %3 x 累积 %4；ZeRO-%5</translation>
    </message>
    <message>
        <source>%1 x %2 train it in %3 days (allowed %4) at the %5 MFU %6; a model given by its parameter count alone has no layers to lay out</source>
        <translation>%1 x %2 可在 %3 天内训练完（允许 %4 天），按%5的 MFU %6；只给参数量的模型没有层可供布局</translation>
    </message>
    <message>
        <source>every one took longer than predicted: %1x the predicted time on average, up to %2x</source>
        <translation>每一次都比预测慢：平均为预测时间的 %1 倍，最多 %2 倍</translation>
    </message>
    <message>
        <source>every one ran faster than predicted: in %1x the predicted time on average</source>
        <translation>每一次都比预测快：平均只用了预测时间的 %1 倍</translation>
    </message>
    <message>
        <source>a whole number &gt;= 1</source>
        <translation>≥ 1 的整数</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>%1 GPUs a host (a launcher&apos;s processes a node)</source>
        <translation>每台主机 %1 块 GPU（启动器每个节点的进程数）</translation>
    </message>
    <message>
        <source>the output could not be written to standard output (%1); what it holds is incomplete</source>
        <translation>输出无法写入标准输出（%1）；已写出的内容不完整</translation>
    </message>
    <message>
        <source>GPU-hours %1</source>
        <translation>GPU 小时 %1</translation>
    </message>
    <message>
        <source>cost %1 (the price&apos;s currency)</source>
        <translation>成本 %1（价格所用货币）</translation>
    </message>
    <message>
        <source>energy %1 kWh</source>
        <translation>能耗 %1 kWh</translation>
    </message>
    <message>
        <source>cannot write %1: it is a folder; give a file name in it</source>
        <translation>无法写入 %1：这是一个文件夹；请给出其中的文件名</translation>
    </message>
    <message>
        <source>cannot write %1: %2; nothing was written</source>
        <translation>无法写入 %1：%2；未写入任何内容</translation>
    </message>
    <message>
        <source>a file, not a folder</source>
        <translation>一个文件，而不是文件夹</translation>
    </message>
    <message>
        <source>spec</source>
        <translation>规格</translation>
    </message>
    <message>
        <source>engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>%1 (plans of another engine on the profile are warned that the efficiency is this one&apos;s)</source>
        <translation>%1（该配置上使用其他引擎的规划会被提示：这个效率属于本引擎）</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>the spec does not fit its GPUs&apos; memory (%1 GB needed, %2 GB): a run of it could not have been measured; check that it has the run&apos;s layout, recomputation and batch</source>
        <translation>该计划放不进其 GPU 的内存（需要 %1 GB，只有 %2 GB）：这样的运行不可能被测到；请检查它的布局、重算和批次是否与该次运行一致</translation>
    </message>
    <message>
        <source>replaces</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>efficiency %1 fitted on %2 (%3), %4</source>
        <translation>在 %2（%3）上拟合的效率 %1，%4</translation>
    </message>
    <message>
        <source>a spec</source>
        <translation>某个计划</translation>
    </message>
    <message>
        <source>engine not recorded</source>
        <translation>未记录引擎</translation>
    </message>
    <message>
        <source>±%1% mean error on %2 published %3 %4 %5 (worst %6%)</source>
        <translation>在 %2 个已公布的 %3 %4 %5上平均误差 ±%1%（最差 %6%）</translation>
    </message>
    <message>
        <source>predicted, calibrated</source>
        <translation>预测，已校准</translation>
    </message>
    <message>
        <source>; layers by stage %1</source>
        <translation>；各阶段层数 %1</translation>
    </message>
    <message>
        <source>%1 (%2): %3 dense peak %4 FLOP/s, bandwidth %5 B/s, ridge %6 FLOP/byte</source>
        <translation>%1（%2）：%3 稠密峰值 %4 FLOP/s，带宽 %5 B/s，加速器强度 %6 FLOP/byte</translation>
    </message>
    <message>
        <source>only with --to vllm, sglang or tensorrt_llm: a training framework&apos;s file names no checkpoint</source>
        <translation>仅用于 --to vllm、sglang 或 tensorrt_llm：训练框架的文件不指定检查点</translation>
    </message>
    <message>
        <source>left out for a serving command: its GPUs are tp x pp x data-parallel replicas, as its flags say</source>
        <translation>推理服务命令不用此项：其 GPU 数为 tp x pp x 数据并行副本数，由命令的参数给出</translation>
    </message>
    <message>
        <source>the spec has an inference block: this is the training plan of its data and training blocks; tally infer %1 plans its serving</source>
        <translation>该规格带有 inference 块：这里给出的是其 data 和 training 块的训练计划；tally infer %1 规划其推理服务</translation>
    </message>
    <message>
        <source>a profile of the workspace %1 or a built-in GPU: the workspace has no profile of this id (deleted, or kept in another workspace file, given with --db); built-in: %2</source>
        <translation>工作区 %1 中的硬件配置或内置 GPU：该工作区没有这个 id 的配置（已被删除，或保存在另一个工作区文件中，可用 --db 指定）；内置：%2</translation>
    </message>
    <message>
        <source>FLOPs/token</source>
        <translation>每 token FLOPs</translation>
    </message>
    <message>
        <source>FLOPs/step</source>
        <translation>每步 FLOPs</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>(nothing is served)</source>
        <translation>（没有提供任何服务）</translation>
    </message>
    <message>
        <source>served</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>nothing: the engine&apos;s KV cache cannot hold one sequence (see the warnings): DOES NOT FIT</source>
        <translation>无：引擎的 KV 缓存连一个序列都放不下（见警告）</translation>
    </message>
    <message>
        <source>none: the engine&apos;s KV cache holds no sequence at the full context, so no request is admitted (more GPUs, a narrower weight dtype or a larger engine share of the memory, inference.memory_fraction, leave it room)</source>
        <translation>无：引擎的 KV 缓存在完整上下文下一个序列都放不下，所以没有请求被接纳（更多 GPU、更窄的权重数据类型，或给引擎更大的内存份额 inference.memory_fraction，都能留出空间）</translation>
    </message>
    <message>
        <source>Serving %1 on %2 x %3 (replicas: %4 of tp %5 x pp %6)</source>
        <translation>在 %2 x %3 上部署 %1（%4 个副本，每个 tp %5 x pp %6）</translation>
    </message>
</context>
<context>
    <name>tally::compare</name>
    <message>
        <source>2 to 6 profiles to compare</source>
        <translation>2 到 6 个要比较的配置</translation>
    </message>
    <message>
        <source>each profile once</source>
        <translation>每个配置只出现一次</translation>
    </message>
    <message>
        <source>a built-in GPU or a profile of this workspace</source>
        <translation>内置 GPU 或本工作区中的配置</translation>
    </message>
    <message>
        <source>2 to 6 plans to compare</source>
        <translation>2 到 6 个要比较的计划</translation>
    </message>
    <message>
        <source>not evaluated: %1</source>
        <translation>未计算：%1</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>%1 (%2 active)</source>
        <translation>%1（激活 %2）</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>%1 of %2 GB: fits</source>
        <translation>%1 / %2 GB：放得下</translation>
    </message>
    <message>
        <source>%1 of %2 GB: DOES NOT FIT</source>
        <translation>%1 / %2 GB：放不下</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>%1 s predicted, MFU %2</source>
        <translation>预测 %1 s，MFU %2</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>%1 days (predicted step)</source>
        <translation>%1 天（按预测单步）</translation>
    </message>
    <message>
        <source>%1 days at the assumed MFU %2</source>
        <translation>%1 天（按假设 MFU %2）</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>%1 at %2 per GPU-hour</source>
        <translation>%1（每 GPU 小时 %2）</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>%1 kWh (GPU boards at TDP)</source>
        <translation>%1 kWh（GPU 板卡按 TDP 计）</translation>
    </message>
    <message>
        <source>no TDP known</source>
        <translation>TDP 未知</translation>
    </message>
</context>
<context>
    <name>tally::einsum</name>
    <message>
        <source>&quot;...&quot; appears twice in input %1</source>
        <translation>&quot;...&quot; 在输入 %1 中出现了两次</translation>
    </message>
    <message>
        <source>&quot;...&quot; appears twice in the output</source>
        <translation>&quot;...&quot; 在输出中出现了两次</translation>
    </message>
    <message>
        <source>axis composition such as &quot;(h d)&quot; in input %1 is not supported; name each dimension on its own</source>
        <translation>不支持输入 %1 中 &quot;(h d)&quot; 这样的轴组合；请逐个写出每个维度</translation>
    </message>
    <message>
        <source>axis composition such as &quot;(h d)&quot; in the output is not supported; name each dimension on its own</source>
        <translation>不支持输出中 &quot;(h d)&quot; 这样的轴组合；请逐个写出每个维度</translation>
    </message>
    <message>
        <source>&apos;%1&apos; in input %2 is not a dimension name (letters, digits and &apos;_&apos;, not starting with a digit; names are separated by spaces)</source>
        <translation>输入 %2 中的 &apos;%1&apos; 不是维度名（由字母、数字和 &apos;_&apos; 组成，不以数字开头；名称之间用空格分隔）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; in the output is not a dimension name (letters, digits and &apos;_&apos;, not starting with a digit; names are separated by spaces)</source>
        <translation>输出中的 &apos;%1&apos; 不是维度名（由字母、数字和 &apos;_&apos; 组成，不以数字开头；名称之间用空格分隔）</translation>
    </message>
    <message>
        <source>dimension &apos;%1&apos; appears twice in input %2 (diagonals and traces are not supported)</source>
        <translation>维度 &apos;%1&apos; 在输入 %2 中出现了两次（不支持对角线和迹）</translation>
    </message>
    <message>
        <source>dimension &apos;%1&apos; appears twice in the output (diagonals and traces are not supported)</source>
        <translation>维度 &apos;%1&apos; 在输出中出现了两次（不支持对角线和迹）</translation>
    </message>
    <message>
        <source>missing &quot;-&gt;&quot; between the inputs and the output, e.g. &quot;batch seq hidden, hidden out -&gt; batch seq out&quot;</source>
        <translation>输入和输出之间缺少 &quot;-&gt;&quot;，例如 &quot;batch seq hidden, hidden out -&gt; batch seq out&quot;</translation>
    </message>
    <message>
        <source>&quot;-&gt;&quot; appears more than once; write inputs -&gt; output</source>
        <translation>&quot;-&gt;&quot; 出现了不止一次；请写成 输入 -&gt; 输出</translation>
    </message>
    <message>
        <source>no input before &quot;-&gt;&quot;, e.g. &quot;batch seq hidden, hidden out -&gt; batch seq out&quot;</source>
        <translation>&quot;-&gt;&quot; 之前没有输入，例如 &quot;batch seq hidden, hidden out -&gt; batch seq out&quot;</translation>
    </message>
    <message>
        <source>the output is one tensor: no &apos;,&apos; after &quot;-&gt;&quot;</source>
        <translation>输出是一个张量：&quot;-&gt;&quot; 之后不能有 &apos;,&apos;</translation>
    </message>
    <message>
        <source>input %1 is empty (two commas in a row, or a comma at an end?)</source>
        <translation>输入 %1 为空（是否连续写了两个逗号，或在开头或末尾多了逗号？）</translation>
    </message>
    <message>
        <source>the output has &quot;...&quot; but no input does</source>
        <translation>输出有 &quot;...&quot;，但没有任何输入有</translation>
    </message>
    <message>
        <source>output dimension &apos;%1&apos; does not appear in any input (inputs have: (none))</source>
        <translation>输出维度 &apos;%1&apos; 没有出现在任何输入中（输入中的维度：（无））</translation>
    </message>
    <message>
        <source>output dimension &apos;%1&apos; does not appear in any input (inputs have: %2)</source>
        <translation>输出维度 &apos;%1&apos; 没有出现在任何输入中（输入中的维度：%2）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a dimension of %2 (its dimensions: (none))</source>
        <translation>&apos;%1&apos; 不是 %2 的维度（它的维度：（无））</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a dimension of %2 (its dimensions: %3)</source>
        <translation>&apos;%1&apos; 不是 %2 的维度（它的维度：%3）</translation>
    </message>
    <message>
        <source>dimension &apos;%1&apos; of %2 needs a size</source>
        <translation>%2 的维度 &apos;%1&apos; 需要一个尺寸</translation>
    </message>
    <message>
        <source>%1 uses &quot;...&quot;; give the sizes it stands for, e.g. &quot;...&quot;: [4, 5]</source>
        <translation>%1 使用了 &quot;...&quot;；请给出它代表的尺寸，例如 &quot;...&quot;: [4, 5]</translation>
    </message>
    <message>
        <source>%1 has no &quot;...&quot;; remove the &quot;...&quot; sizes</source>
        <translation>%1 中没有 &quot;...&quot;；请删除 &quot;...&quot; 的尺寸</translation>
    </message>
    <message>
        <source>the dimension sizes of %1 multiply to more than 1e48, the largest product allowed</source>
        <translation>%1 的维度尺寸之积超过了允许的最大乘积 1e48</translation>
    </message>
    <message>
        <source>dimension names separated by spaces, as in &quot;%1&quot; (each operand is read as one name, such as &apos;%2&apos;)</source>
        <translation>用空格分隔的维度名，如 &quot;%1&quot;（每个操作数都被读作一个名称，例如 &apos;%2&apos;）</translation>
    </message>
    <message>
        <source>a dimension size must be a whole number from 1 to 9e15</source>
        <translation>维度大小必须是 1 到 9e15 之间的整数</translation>
    </message>
</context>
<context>
    <name>tally::enums</name>
    <message>
        <source>Transformer</source>
        <translation>Transformer</translation>
    </message>
    <message>
        <source>Deep ReLU network (lecture 2)</source>
        <translation>深度 ReLU 网络（第 2 讲）</translation>
    </message>
    <message>
        <source>Parameter count only</source>
        <translation>只有参数量</translation>
    </message>
    <message>
        <source>GELU</source>
        <translation>GELU</translation>
    </message>
    <message>
        <source>SwiGLU</source>
        <translation>SwiGLU</translation>
    </message>
    <message>
        <source>ReLU</source>
        <translation>ReLU</translation>
    </message>
    <message>
        <source>RMSNorm</source>
        <translation>RMSNorm</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>LayerNorm</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>QKV only</source>
        <translation>仅 QKV</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>AdaGrad</source>
        <translation>AdaGrad</translation>
    </message>
    <message>
        <source>RMSProp</source>
        <translation>RMSProp</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>Lion</source>
        <translation>Lion</translation>
    </message>
    <message>
        <source>8-bit Adam</source>
        <translation>8 位 Adam</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>every sqrt(L) layers</source>
        <translation>每 sqrt(L) 层</translation>
    </message>
    <message>
        <source>6 N D</source>
        <translation>6 N D</translation>
    </message>
    <message>
        <source>6 N D + attention</source>
        <translation>6 N D + 注意力</translation>
    </message>
    <message>
        <source>optimizer state to host</source>
        <translation>优化器状态卸载到主机</translation>
    </message>
    <message>
        <source>optimizer state and parameters to host</source>
        <translation>优化器状态和参数卸载到主机</translation>
    </message>
    <message>
        <source>Megatron-Core + Transformer Engine</source>
        <translation>Megatron-Core + Transformer Engine</translation>
    </message>
    <message>
        <source>PyTorch FSDP (eager)</source>
        <translation>PyTorch FSDP（eager）</translation>
    </message>
    <message>
        <source>PyTorch FSDP + torch.compile</source>
        <translation>PyTorch FSDP + torch.compile</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO</source>
        <translation>DeepSpeed ZeRO</translation>
    </message>
    <message>
        <source>delayed scaling (per tensor)</source>
        <translation>延迟缩放（按张量）</translation>
    </message>
    <message>
        <source>current scaling (per tensor)</source>
        <translation>即时缩放（按张量）</translation>
    </message>
    <message>
        <source>blockwise (1x128, 128x128)</source>
        <translation>分块（1x128, 128x128）</translation>
    </message>
    <message>
        <source>MXFP8 (32-value blocks)</source>
        <translation>MXFP8（32 值一块）</translation>
    </message>
    <message>
        <source>the engine&apos;s</source>
        <translation>引擎自带的</translation>
    </message>
    <message>
        <source>FlashAttention-2</source>
        <translation>FlashAttention-2</translation>
    </message>
    <message>
        <source>FlashAttention-3</source>
        <translation>FlashAttention-3</translation>
    </message>
    <message>
        <source>cuDNN fused attention</source>
        <translation>cuDNN 融合注意力</translation>
    </message>
    <message>
        <source>Triton flash attention</source>
        <translation>Triton flash attention</translation>
    </message>
    <message>
        <source>relu</source>
        <translation>relu</translation>
    </message>
    <message>
        <source>gelu</source>
        <translation>gelu</translation>
    </message>
    <message>
        <source>dot</source>
        <translation>dot</translation>
    </message>
    <message>
        <source>matvec</source>
        <translation>matvec</translation>
    </message>
    <message>
        <source>matmul</source>
        <translation>matmul</translation>
    </message>
    <message>
        <source>einsum</source>
        <translation>einsum</translation>
    </message>
    <message>
        <source>fp64</source>
        <translation>fp64</translation>
    </message>
    <message>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <source>tf32</source>
        <translation>tf32</translation>
    </message>
    <message>
        <source>bf16</source>
        <translation>bf16</translation>
    </message>
    <message>
        <source>fp16</source>
        <translation>fp16</translation>
    </message>
    <message>
        <source>fp8_e4m3</source>
        <translation>fp8_e4m3</translation>
    </message>
    <message>
        <source>fp8_e5m2</source>
        <translation>fp8_e5m2</translation>
    </message>
    <message>
        <source>int8</source>
        <translation>int8</translation>
    </message>
    <message>
        <source>fp4_e2m1</source>
        <translation>fp4_e2m1</translation>
    </message>
    <message>
        <source>nvfp4</source>
        <translation>nvfp4</translation>
    </message>
    <message>
        <source>mxfp4</source>
        <translation>mxfp4</translation>
    </message>
    <message>
        <source>int4</source>
        <translation>int4</translation>
    </message>
    <message>
        <source>all-to-all (every token copy)</source>
        <translation>all-to-all（每个 token 副本各发一次）</translation>
    </message>
    <message>
        <source>flex: DeepEP / HybridEP (once per node)</source>
        <translation>flex：DeepEP / HybridEP（每个节点只发一次）</translation>
    </message>
    <message>
        <source>FlashAttention (v1, or its 2022 Triton port)</source>
        <translation>FlashAttention（第一版，或其 2022 年的 Triton 移植）</translation>
    </message>
    <message>
        <source>each KV head read once for its query heads</source>
        <translation>每个 KV 头为其查询头只读一次</translation>
    </message>
    <message>
        <source>KV read once per query head (masked MHA)</source>
        <translation>每个查询头各读一次 KV（masked MHA）</translation>
    </message>
    <message>
        <source>before each layer&apos;s gradients (BACKWARD_PRE)</source>
        <translation>在每层梯度计算之前（BACKWARD_PRE）</translation>
    </message>
    <message>
        <source>after each layer&apos;s gradients (BACKWARD_POST)</source>
        <translation>在每层梯度计算之后（BACKWARD_POST）</translation>
    </message>
    <message>
        <source>fused: one pass (FusedAdam)</source>
        <translation>融合：单次遍历（FusedAdam）</translation>
    </message>
    <message>
        <source>foreach: a pass per operation (torch.optim.AdamW)</source>
        <translation>foreach：每个运算遍历一次（torch.optim.AdamW）</translation>
    </message>
    <message>
        <source>as the engine&apos;s checkpoints store it</source>
        <translation>按引擎所用检查点的存储方式</translation>
    </message>
    <message>
        <source>quantized like the other weights</source>
        <translation>与其他权重一样量化</translation>
    </message>
    <message>
        <source>16-bit</source>
        <translation>16 位</translation>
    </message>
    <message>
        <source>one pass over the optimizer state</source>
        <translation>对优化器状态读写一遍</translation>
    </message>
    <message>
        <source>fp32 softmax, 4 B a logit</source>
        <translation>fp32 softmax，每个 logit 4 B</translation>
    </message>
    <message>
        <source>in place, 2 B a logit</source>
        <translation>原地计算，每个 logit 2 B</translation>
    </message>
</context>
<context>
    <name>tally::examples</name>
    <message>
        <source>DeepSeek-V3 served on 8 H200 at fp8</source>
        <translation>DeepSeek-V3 在 8 张 H200 上以 fp8 提供推理服务</translation>
    </message>
    <message>
        <source>Serving plan (tally infer): DeepSeek-V3 in its native fp8 weights (DeepSeek-AI 2024, sec. 3.3) on one 8-GPU H200 node, tensor-parallel over all 8, with a bf16 latent KV cache (multi-head latent attention: 512 + 64 values per token and layer, kept whole on every GPU). 64 sequences of a 4096-token prompt and 1024 output tokens. The data and training blocks are the spec format&apos;s and do not enter the serving plan.</source>
        <translation>推理服务计划（tally infer）：DeepSeek-V3 使用原生 fp8 权重（DeepSeek-AI 2024，第 3.3 节），运行在一个 8 GPU 的 H200 节点上，在全部 8 个 GPU 上张量并行，KV 缓存为 bf16 潜在向量（多头潜在注意力：每 token 每层 512 + 64 个值，每个 GPU 上保存完整的一份）。64 个序列，每个提示 4096 token、输出 1024 token。data 和 training 块是规格格式要求的，不参与推理服务计划。</translation>
    </message>
    <message>
        <source>CS336 lecture 2: the deep ReLU network (D x D blocks)</source>
        <translation>CS336 第 2 讲：深度 ReLU 网络（D x D 块）</translation>
    </message>
    <message>
        <source>D^2 L parameters; 6 B D^2 L training FLOPs per step; 2 B D L bytes of bf16 activations (seeds 000, 002)</source>
        <translation>D^2 L 个参数；每步 6 B D^2 L 训练 FLOPs；bf16 激活值 2 B D L 字节（讲义 000、002）</translation>
    </message>
    <message>
        <source>Llama 2 70B on 2T tokens, 2048 H100: tp 8, pp 4, sequence parallel, selective recompute</source>
        <translation>Llama 2 70B，2T token，2048 张 H100：tp 8，pp 4，序列并行，选择性重计算</translation>
    </message>
    <message>
        <source>Llama 3 70B on 15T tokens, 1024 H100: tp 8, pp 4, sequence parallel, ZeRO-1</source>
        <translation>Llama 3 70B，15T token，1024 张 H100：tp 8，pp 4，序列并行，ZeRO-1</translation>
    </message>
    <message>
        <source>Llama 3 70B served on 4 H100 at fp8</source>
        <translation>Llama 3 70B 在 4 张 H100 上以 fp8 提供推理服务</translation>
    </message>
    <message>
        <source>Serving plan (tally infer): Llama 3 70B with fp8 weights and a bf16 KV cache, tensor-parallel over the 4 GPUs, 32 sequences of a 2048-token prompt and 512 output tokens. The price of 2.50 per GPU-hour is an illustrative rental rate, not a quote. The data and training blocks are the spec format&apos;s (tally plan reads the same file) and do not enter the serving plan.</source>
        <translation>推理服务计划（tally infer）：Llama 3 70B 使用 fp8 权重和 bf16 KV 缓存，在 4 个 GPU 上张量并行，32 个序列，每个提示 2048 token、输出 512 token。每 GPU 小时 2.50 的价格只是示意的租用价格，不是报价。data 和 training 块是规格格式要求的（tally plan 读取同一个文件），不参与推理服务计划。</translation>
    </message>
    <message>
        <source>CS336 lecture 2: arithmetic intensity and the roofline on an H100</source>
        <translation>CS336 第 2 讲：H100 上的算术强度与 roofline</translation>
    </message>
    <message>
        <source>bf16 throughout. ReLU on 1e6 values: 1e6 FLOPs / (2e6 + 2e6) bytes = 0.25; GELU at 20 FLOPs/value: 2e7 / 4e6 = 5; dot of two 1e6-vectors: 2e6 / (4e6 + 2) = 0.4999995; 1024 x 1024 matrix times vector: 2·1024² / (2·1024² + 4·1024) = 0.998; 1024³ matmul: 2·1024³ / (3·2·1024²) = 341.3; H100 ridge (1979e12/2) / 3.35e12 = 295.4: everything but the matmul is memory-bound (seeds 000, 003). The einsums are the lecture&apos;s: a linear layer 2·B·D·K, attention scores, and &apos;...&apos; leading dimensions. The model&apos;s layers are Llama 2 70B (the seed&apos;s 70B question) at micro-batch 1 x 4096 tokens, trained with ZeRO-3 and full recomputation so that it fits the 1024 H100s (10.5 GB a GPU); neither changes where the layers sit on the roofline.</source>
        <translation>全部为 bf16。对 1e6 个值做 ReLU：1e6 FLOPs / (2e6 + 2e6) 字节 = 0.25；每值 20 FLOPs 的 GELU：2e7 / 4e6 = 5；两个 1e6 维向量的点积：2e6 / (4e6 + 2) = 0.4999995；1024 x 1024 矩阵乘向量：2·1024² / (2·1024² + 4·1024) = 0.998；1024³ 矩阵乘：2·1024³ / (3·2·1024²) = 341.3；H100 的加速器强度 (1979e12/2) / 3.35e12 = 295.4：除矩阵乘外都是内存受限的（讲义 000、003）。einsum 运算取自讲座：线性层 2·B·D·K、注意力分数，以及 &apos;...&apos; 前导维度。模型的各层是 Llama 2 70B（讲义中的 70B 问题），微批次 1 x 4096 token，用 ZeRO-3 和完整重计算训练，以便放进 1024 张 H100（每 GPU 10.5 GB）；二者都不改变各层在 roofline 上的位置。</translation>
    </message>
    <message>
        <source>CS336 lecture 2, question 1: 70B parameters, 15T tokens, 1024 H100, MFU 0.5</source>
        <translation>CS336 第 2 讲，问题 1：70B 参数，15T token，1024 张 H100，MFU 0.5</translation>
    </message>
    <message>
        <source>total_flops = 6 x 70e9 x 15e12 = 6.3e24; days = 6.3e24 / (1979e12/2 x 0.5 x 1024 x 86400) = 143.9 (seeds 002, 003)</source>
        <translation>总 FLOPs = 6 x 70e9 x 15e12 = 6.3e24；天数 = 6.3e24 / (1979e12/2 x 0.5 x 1024 x 86400) = 143.9（讲义 002、003）</translation>
    </message>
    <message>
        <source>CS336 lecture 2, question 2: largest model AdamW trains on 8 x 80 GB (bf16 params and grads, fp32 states)</source>
        <translation>CS336 第 2 讲，问题 2：AdamW 在 8 x 80 GB 上能训练的最大模型（bf16 参数和梯度，fp32 优化器状态）</translation>
    </message>
    <message>
        <source>bytes per parameter = 2 + 2 + (4 + 4) = 12 with no fp32 master copy; 8 x 80e9 / 12 = 5.33e10 (seeds 000, 003). ZeRO-3 spreads the model state over all 8 GPUs, as the lecture&apos;s total-memory division assumes.</source>
        <translation>每个参数的字节数 = 2 + 2 + (4 + 4) = 12，没有 fp32 主权重副本；8 x 80e9 / 12 = 5.33e10（讲义 000、003）。ZeRO-3 把模型状态分散到全部 8 个 GPU 上，正如讲座用总内存相除时所假设的那样。</translation>
    </message>
    <message>
        <source>CS336 lecture 2 notes, question 2 in fp32: 4 + 4 + (4 + 4) = 16 bytes per parameter on 8 x 80 GB</source>
        <translation>CS336 第 2 讲笔记，问题 2 的 fp32 版本：在 8 x 80 GB 上每个参数 4 + 4 + (4 + 4) = 16 字节</translation>
    </message>
    <message>
        <source>num_parameters = (80e9 x 8) / 16 = 4e10 (seed 002)</source>
        <translation>参数量 = (80e9 x 8) / 16 = 4e10（讲义 002）</translation>
    </message>
    <message>
        <source>Mistral 7B served at 32K tokens on one H100: the rolling KV cache</source>
        <translation>Mistral 7B 在一张 H100 上以 32K token 提供推理服务：滚动 KV 缓存</translation>
    </message>
    <message>
        <source>Serving plan (tally infer): Mistral 7B v0.1, whose 32 layers attend through a 4096-token sliding window (Jiang et al. 2023, sec. 2), on one H100 with bf16 weights and cache: 8 sequences of a 32000-token prompt and 768 output tokens, 32768 in all. Each layer keeps only its last 4096 positions (a rolling buffer), so the cache is 4096 / 32768 = 1/8 of what full attention would keep: the paper&apos;s &apos;on a sequence length of 32k tokens, this reduces the cache memory usage by 8x&apos;. Set the sliding window to none to see the full cache. The data and training blocks are the spec format&apos;s and do not enter the serving plan.</source>
        <translation>推理服务计划（tally infer）：Mistral 7B v0.1 的 32 层都通过 4096 token 的滑动窗口做注意力（Jiang et al. 2023，第 2 节），部署在一张 H100 上，权重与缓存均为 bf16：8 条序列，每条 32000 token 的提示加 768 个输出 token，共 32768。每层只保留最近 4096 个位置（滚动缓冲区），因此缓存是全注意力所需的 4096 / 32768 = 1/8：即论文所说的“在 32k token 的序列长度上，这使缓存内存占用减少 8 倍”。把滑动窗口设为 none 即可看到完整缓存。data 与 training 块属于计划文件格式本身，不参与推理服务计划。</translation>
    </message>
    <message>
        <source>DeepSeek-V3 shape on 14.8T tokens, 2048 H800, fp8 compute, ZeRO-3, full recomputation</source>
        <translation>DeepSeek-V3 形状，14.8T token，2048 张 H800，fp8 计算，ZeRO-3，完整重计算</translation>
    </message>
    <message>
        <source>DeepSeek-V3&apos;s model, tokens and cluster: 2048 H800 (DeepSeek-AI 2024, sec. 3.1), 14.8T tokens of 4K sequences (sec. 4.2), here with the simplest layout (ZeRO-3 over all 2048 GPUs, full recomputation, no model parallelism) and an assumed MFU of 0.3, as the lecture estimates time. The performance model shows why the report does otherwise: every step gathers and reduce-scatters all 671B parameters over the data-parallel group, and its predicted MFU is under a tenth of the assumed one. The report&apos;s own layout is 16-way pipeline, 64-way expert parallelism over 8 nodes and ZeRO-1 (sec. 3.2: training.pp 16, training.expert_parallel 64, training.zero 1). The report&apos;s batch grows to 15360 sequences; 16384 is the nearest whole number of micro-batches on 2048 data-parallel GPUs. MFU 0.3 is an assumption, not from the report.</source>
        <translation>DeepSeek-V3 的模型、token 数与集群：2048 张 H800（DeepSeek-AI 2024，第 3.1 节），14.8T token，序列长度 4K（第 4.2 节）；这里用最简单的布局（在全部 2048 个 GPU 上做 ZeRO-3，完整重计算，不做模型并行），并像讲义估算时间那样假设 MFU 为 0.3。性能模型说明了报告为何不这样做：每一步都要在数据并行组内聚集并规约分散全部 671B 个参数，预测的 MFU 不到假设值的十分之一。报告自己的布局是 16 路流水线并行、跨 8 个节点的 64 路专家并行和 ZeRO-1（第 3.2 节：training.pp 16、training.expert_parallel 64、training.zero 1）。报告中的批次增长到 15360 个序列；16384 是 2048 个数据并行 GPU 上最接近的整数个微批次。MFU 0.3 是假设值，并非来自报告。</translation>
    </message>
</context>
<context>
    <name>tally::explain</name>
    <message>
        <source>Predicted step</source>
        <translation>预测的单步时间</translation>
    </message>
    <message>
        <source>GEMMs (forward + backward)</source>
        <translation>GEMM（前向 + 反向）</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Memory-bound ops</source>
        <translation>内存受限运算</translation>
    </message>
    <message>
        <source>Tensor-parallel collectives</source>
        <translation>张量并行集合通信</translation>
    </message>
    <message>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>Pipeline sends</source>
        <translation>流水线发送</translation>
    </message>
    <message>
        <source>Data-parallel, exposed</source>
        <translation>数据并行，暴露部分</translation>
    </message>
    <message>
        <source>Expert all-to-all</source>
        <translation>专家 all-to-all</translation>
    </message>
    <message>
        <source>Offload traffic</source>
        <translation>卸载流量</translation>
    </message>
    <message>
        <source>Optimizer update</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <source>Predicted MFU</source>
        <translation>预测的 MFU</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>FLOPs per token</source>
        <translation>每 token 的 FLOPs</translation>
    </message>
    <message>
        <source>Training FLOPs</source>
        <translation>训练 FLOPs</translation>
    </message>
    <message>
        <source>Hardware FLOPs</source>
        <translation>硬件 FLOPs</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>Dense peak, one GPU</source>
        <translation>稠密峰值，单个 GPU</translation>
    </message>
    <message>
        <source>Achieved, whole cluster</source>
        <translation>实际达到，整个集群</translation>
    </message>
    <message>
        <source>HFU</source>
        <translation>HFU</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Total per GPU</source>
        <translation>每 GPU 总计</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Tokens per step</source>
        <translation>每步 token 数</translation>
    </message>
    <message>
        <source>Optimizer steps</source>
        <translation>优化器步数</translation>
    </message>
    <message>
        <source>KV cache per token</source>
        <translation>每 token 的 KV 缓存</translation>
    </message>
    <message>
        <source>Weights per GPU</source>
        <translation>每 GPU 权重</translation>
    </message>
    <message>
        <source>KV cache per GPU</source>
        <translation>每 GPU KV 缓存</translation>
    </message>
    <message>
        <source>Activations per GPU</source>
        <translation>每 GPU 激活值</translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation>能放下的最大批次</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首 token 时间</translation>
    </message>
    <message>
        <source>Decode step</source>
        <translation>解码单步</translation>
    </message>
    <message>
        <source>All-reduces per decode step</source>
        <translation>每个解码步的 all-reduce</translation>
    </message>
    <message>
        <source>Tokens per second per sequence</source>
        <translation>每序列每秒 token 数</translation>
    </message>
    <message>
        <source>Cost per million output tokens</source>
        <translation>每百万输出 token 成本</translation>
    </message>
    <message>
        <source>Critical batch</source>
        <translation>临界批次大小</translation>
    </message>
    <message>
        <source>Prefill of the batch</source>
        <translation>整批的预填充</translation>
    </message>
    <message>
        <source>Inter-token latency</source>
        <translation>token 间延迟</translation>
    </message>
    <message>
        <source>Throughput at concurrency</source>
        <translation>该并发下的吞吐量</translation>
    </message>
    <message>
        <source>Throughput (static batch)</source>
        <translation>吞吐量（静态批处理）</translation>
    </message>
    <message>
        <source>context %1 tokens, %2 GB capacity: B = %3</source>
        <translation>上下文 %1 个 token，容量 %2 GB：B = %3</translation>
    </message>
    <message>
        <source>one pass of %1 tokens: %2 + %3 + %4 + %5 s = %6 s; the batch: %7 s</source>
        <translation>一次 %1 个 token：%2 + %3 + %4 + %5 s = %6 s；整批：%7 s</translation>
    </message>
    <message>
        <source>%1 + %2 + %3 + %4 s = %5 s (GEMMs: compute %6 s, weights %7 s)</source>
        <translation>%1 + %2 + %3 + %4 s = %5 s（GEMM：计算 %6 s，权重 %7 s）</translation>
    </message>
    <message>
        <source>%1 (%2 at %3 over %4: ridge %5 FLOP per byte)</source>
        <translation>%1（%2 的 %3 除以 %4：加速器强度 %5 FLOP/byte）</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>%1 micro-batches of %2 s on the slowest stage, bubble %3</source>
        <translation>%1 个微批次，最慢阶段每个 %2 s，气泡 %3</translation>
    </message>
    <message>
        <source>%1 s / %2 s = %3; this plan %4 s / %3 = %5 s</source>
        <translation>%1 s / %2 s = %3；本计划 %4 s / %3 = %5 s</translation>
    </message>
    <message>
        <source>%1 micro-batches at %2 FLOP/s achieved</source>
        <translation>%1 个微批次，实际达到 %2 FLOP/s</translation>
    </message>
    <message>
        <source>%1 micro-batches; %2 of %3 distinct GEMMs measured (%4), the others at %5 FLOP/s achieved</source>
        <translation>%1 个微批次；%3 种 GEMM 中 %2 种为实测（%4），其余按实际达到的 %5 FLOP/s 计</translation>
    </message>
    <message>
        <source>at %1 bytes/s achieved</source>
        <translation>实际达到 %1 字节/秒</translation>
    </message>
    <message>
        <source>v %1, %2 micro-batches of T = %3 x %4 tokens, h %5, tp %6, %7</source>
        <translation>v %1，%2 个微批次，每个 T = %3 x %4 个 token，h %5，tp %6，%7</translation>
    </message>
    <message>
        <source>of %1 s in all; ZeRO-%2, overlap %3</source>
        <translation>共 %1 s；ZeRO-%2，重叠：%3</translation>
    </message>
    <message>
        <source>context parallel %1, %2 micro-batches</source>
        <translation>上下文并行 %1，%2 个微批次</translation>
    </message>
    <message>
        <source>engine %1</source>
        <translation>引擎 %1</translation>
    </message>
    <message>
        <source>%1 s of traffic hidden behind compute</source>
        <translation>%1 s 的通信隐藏在计算之后</translation>
    </message>
    <message>
        <source>%1 total, %2 active, %3 embedding</source>
        <translation>总计 %1，激活参数 %2，嵌入 %3</translation>
    </message>
    <message>
        <source>%1 x %2 s / 86400 = %3 days</source>
        <translation>%1 x %2 s / 86400 = %3 天</translation>
    </message>
    <message>
        <source>%1 / (%2 x %3 x %4 x 86400) = %5 days</source>
        <translation>%1 / (%2 x %3 x %4 x 86400) = %5 天</translation>
    </message>
    <message>
        <source>%1 per layer x %2 layers x %3 in flight + %4 output/embedding + %5 recompute working set = %6</source>
        <translation>每层 %1 x %2 层 x 同时在途 %3 个 + 输出/嵌入 %4 + 重计算工作集 %5 = %6</translation>
    </message>
    <message>
        <source>%1 of %2 capacity (%3)</source>
        <translation>%1，容量 %2（%3）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>能放下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>%1 + %2 + %3 = %4 GB of %5 GB (%6)</source>
        <translation>%1 + %2 + %3 = %4 GB，共 %5 GB（%6）</translation>
    </message>
    <message>
        <source>NCCL ring</source>
        <translation>NCCL 环形</translation>
    </message>
    <message>
        <source>custom one-shot / two-shot</source>
        <translation>自定义 one-shot / two-shot</translation>
    </message>
    <message>
        <source>tp %1 on %2 bytes/s per GPU, overlap with GEMMs %3 (exposed max(C / tp, C - GEMMs x (tp - 1) / tp))</source>
        <translation>tp %1，每 GPU %2 字节/秒，与 GEMM 重叠：%3（暴露 max(C / tp, C - GEMMs x (tp - 1) / tp)）</translation>
    </message>
    <message>
        <source>offload = %1, activations of %2 layers (%3 bytes per micro-batch), host link %4 bytes/s, overlap %5</source>
        <translation>offload = %1，%2 层的激活（每个微批次 %3 字节），主机链路 %4 字节/秒，重叠：%5</translation>
    </message>
    <message>
        <source>Context-parallel exchange</source>
        <translation>上下文并行交换</translation>
    </message>
    <message>
        <source>Kernel launch gaps</source>
        <translation>kernel 启动间隙</translation>
    </message>
    <message>
        <source>SMs taken by NCCL</source>
        <translation>NCCL 占用的 SM</translation>
    </message>
    <message>
        <source>expert parallel %1, k = %2 of %3 experts, %4 micro-batches, overlap with another micro-batch %5, dispatcher %6</source>
        <translation>专家并行 %1，%3 个专家中选 k = %2 个，%4 个微批次，与另一微批次重叠：%5，分发器 %6</translation>
    </message>
    <message>
        <source>%1 micro-batches; GEMMs of 256 or more on every side at the measured rate of their shape, the others at %2 FLOP/s achieved</source>
        <translation>%1 个微批次；各边均不小于 256 的 GEMM 按其形状的实测速率计，其余按实际达到的 %2 FLOP/s 计</translation>
    </message>
    <message>
        <source>Wait for admission</source>
        <translation>等待准入</translation>
    </message>
    <message>
        <source>(%1 / %2 - 1) x %3 s = %4 s; the KV cache holds %2 sequences, the other %5 requests wait</source>
        <translation>(%1 / %2 - 1) x %3 s = %4 s；KV 缓存能容纳 %2 个序列，其余 %5 个请求等待</translation>
    </message>
    <message>
        <source>%1, f = %2, context %3 tokens: B = %4</source>
        <translation>%1，f = %2，上下文 %3 个 token：B = %4</translation>
    </message>
    <message>
        <source>Prefill wait</source>
        <translation>预填充等待</translation>
    </message>
    <message>
        <source>%1 x %2 all-reduce of %3 B over %4 GPUs at %5 (NCCL counts %6 for the link) = %7 s (%8 s of it latency)</source>
        <translation>%1 x %2 all-reduce，每次 %3 B，跨 %4 个 GPU，带宽 %5（NCCL 按 %6 计这条链路）= %7 s（其中延迟 %8 s）</translation>
    </message>
    <message>
        <source>ZeRO-3 gathered layers</source>
        <translation>ZeRO-3 聚集的层</translation>
    </message>
    <message>
        <source>2 x %1 / %2 x %3 = %4</source>
        <translation>2 x %1 / %2 x %3 = %4</translation>
    </message>
    <message>
        <source>Pipeline buffers</source>
        <translation>流水线缓冲区</translation>
    </message>
    <message>
        <source>4 x %1 x %2 / %3 x %4 x %5 / %6 = %7</source>
        <translation>4 x %1 x %2 / %3 x %4 x %5 / %6 = %7</translation>
    </message>
    <message>
        <source>Calibrated efficiency</source>
        <translation>校准效率</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Sequences the token budget keeps running</source>
        <translation>token 预算可持续运行的序列数</translation>
    </message>
    <message>
        <source>(%1 / %2 - 1) x %3 s = %4 s; the token budget of %6 a step keeps %2 sequences running, the other %5 requests wait</source>
        <translation>(%1 / %2 - 1) x %3 s = %4 s；每步 %6 个 token 的预算可持续运行 %2 个序列，其余 %5 个请求等待</translation>
    </message>
    <message>
        <source>Total per GPU, requests in flight</source>
        <translation>每 GPU 总计（在途请求）</translation>
    </message>
    <message>
        <source>%1 + %2 + %3 = %4 GB of %5 GB with %6 requests in flight (%7)</source>
        <translation>%1 + %2 + %3 = %4 GB，共 %5 GB，含 %6 个在途请求（%7）</translation>
    </message>
    <message>
        <source>shard = %1 of this GPU&apos;s %2 parameters at %3 bytes/s achieved, %4 bytes per parameter (%5; gradient clipping included)</source>
        <translation>分片 = 本 GPU %2 个参数中的 %1 个，实际带宽 %3 字节/秒，每参数 %4 字节（%5；含梯度裁剪）</translation>
    </message>
    <message>
        <source>%1 (%2, %3 state)</source>
        <translation>%1（%2，%3 状态）</translation>
    </message>
    <message>
        <source>Admitted by the KV cache</source>
        <translation>KV 缓存能容纳的序列</translation>
    </message>
    <message>
        <source>none: tp 1, each replica on one GPU, reduces nothing = 0 s</source>
        <translation>无：tp 1，每个副本只占一个 GPU，无需归约 = 0 s</translation>
    </message>
    <message>
        <source>%1 per layer x %2 layers x %3 in flight + %4 output/embedding (the loss: %5) + %6 recompute working set = %7</source>
        <translation>每层 %1 x %2 层 x 同时在途 %3 个 + 输出/嵌入 %4（损失：%5）+ 重计算工作集 %6 = %7</translation>
    </message>
    <message>
        <source>one pass of %1 tokens: %8 stages x (%2 + %3 + %4 + %5 s) + %9 s of sends = %6 s; the batch: %7 s</source>
        <translation>一次 %1 个 token：%8 个阶段 x (%2 + %3 + %4 + %5 s) + 发送 %9 s = %6 s；整批：%7 s</translation>
    </message>
    <message>
        <source>%8 stages x (%1 + %2 + %3 + %4 s) + %9 s of sends = %5 s (a stage&apos;s GEMMs: compute %6 s, weights %7 s)</source>
        <translation>%8 个阶段 x (%1 + %2 + %3 + %4 s) + 发送 %9 s = %5 s（一个阶段的 GEMM：计算 %6 s，权重 %7 s）</translation>
    </message>
</context>
<context>
    <name>tally::formula</name>
    <message>
        <source>compute + recompute + memory-bound + TP + PP comm + PP bubble + DP exposed + EP + CP + launch gaps + NCCL SMs + offload + optimizer</source>
        <translation>计算 + 重计算 + 内存受限 + TP + PP 通信 + PP 气泡 + 未重叠的 DP 通信 + EP + CP + 启动间隙 + NCCL SM + 卸载 + 优化器</translation>
    </message>
    <message>
        <source>predicted step / measured step of the calibrating spec; every time of the step divided by it</source>
        <translation>校准所用计划的预测单步 / 实测单步；单步的每一项时间都除以它</translation>
    </message>
    <message>
        <source>sum over the stage&apos;s GEMMs of the measured time of that GEMM where the profile has one, else 2mnk / (peak x GEMM fraction x quantization); backward = data + weight gradients</source>
        <translation>对该阶段所有 GEMM 求和：硬件配置中有实测时间的用实测时间，否则 2mnk / (峰值 x GEMM 比例 x 量化)；反向 = 数据梯度 + 权重梯度</translation>
    </message>
    <message>
        <source>the forward work recomputation repeats</source>
        <translation>重计算重复的前向工作量</translation>
    </message>
    <message>
        <source>bytes moved / (bandwidth x memory fraction); backward 1.5x forward</source>
        <translation>搬运字节数 / (带宽 x 内存比例)；反向为前向的 1.5 倍</translation>
    </message>
    <message>
        <source>4 all-reduces (or RS + AG) of T x h per layer, ring 2(n-1)/n + NCCL latency</source>
        <translation>每层 4 次 T x h 的 all-reduce（或 RS + AG），环形 2(n-1)/n + NCCL 延迟</translation>
    </message>
    <message>
        <source>(pp - 1) / (v x m) x m x micro-batch time</source>
        <translation>(pp - 1) / (v x m) x m x 微批次时间</translation>
    </message>
    <message>
        <source>2 x v sends of T x h / tp per micro-batch</source>
        <translation>每个微批次 2 x v 次发送，每次 T x h / tp</translation>
    </message>
    <message>
        <source>what the backward (forward) pass does not hide, at least the last bucket</source>
        <translation>反向（前向）未能隐藏的部分，至少为最后一个桶</translation>
    </message>
    <message>
        <source>4 all-to-alls of T x k x h per MoE layer</source>
        <translation>每个 MoE 层 4 次 T x k x h 的 all-to-all</translation>
    </message>
    <message>
        <source>ring attention: cp - 1 key/value sends forward, twice backward, beyond the attention they overlap</source>
        <translation>环形注意力：前向 cp - 1 次键/值发送，反向两倍，超出与之重叠的注意力计算的部分</translation>
    </message>
    <message>
        <source>kernels per layer x layers x micro-batches x 0.9 us</source>
        <translation>每层 kernel 数 x 层数 x 微批次数 x 0.9 us</translation>
    </message>
    <message>
        <source>gradients down, parameters up over the host link; offloaded activations down in the forward, up in the backward, beyond what each pass hides</source>
        <translation>经主机链路下传梯度、上传参数；卸载的激活在前向下传、反向上传，超出各遍计算所能隐藏的部分</translation>
    </message>
    <message>
        <source>shard x bytes read and written per parameter / achieved bandwidth</source>
        <translation>分片 x 每个参数读写字节数 / 实际带宽</translation>
    </message>
    <message>
        <source>model FLOPs per step / (step x GPUs x peak)</source>
        <translation>每步模型 FLOPs / (单步时间 x GPU 数 x 峰值)</translation>
    </message>
    <message>
        <source>FLOPs per token x tokens</source>
        <translation>每 token FLOPs x token 数</translation>
    </message>
    <message>
        <source>model FLOPs + recomputed forward FLOPs x tokens</source>
        <translation>模型 FLOPs + 重计算的前向 FLOPs x token 数</translation>
    </message>
    <message>
        <source>steps x predicted step time / 86400 s</source>
        <translation>步数 x 预测单步时间 / 86400 s</translation>
    </message>
    <message>
        <source>MFU x hardware FLOPs / model FLOPs</source>
        <translation>MFU x 硬件 FLOPs / 模型 FLOPs</translation>
    </message>
    <message>
        <source>GPU-hours x price per GPU-hour</source>
        <translation>GPU 小时 x 每 GPU 小时价格</translation>
    </message>
    <message>
        <source>GPU-hours x TDP / 1000 (GPU boards only)</source>
        <translation>GPU 小时 x TDP / 1000（仅 GPU 板卡）</translation>
    </message>
    <message>
        <source>N_gpu x bytes of state per parameter / (dp x cp if ZeRO &gt;= 1)</source>
        <translation>N_gpu x 每个参数的状态字节数 / (ZeRO &gt;= 1 时除以 dp x cp)</translation>
    </message>
    <message>
        <source>global batch / (micro batch x data-parallel GPUs)</source>
        <translation>全局批次 / (微批次 x 数据并行 GPU 数)</translation>
    </message>
    <message>
        <source>global batch x sequence length</source>
        <translation>全局批次 x 序列长度</translation>
    </message>
    <message>
        <source>training tokens / tokens per step</source>
        <translation>训练 token 数 / 每步 token 数</translation>
    </message>
    <message>
        <source>not counted (no architecture)</source>
        <translation>未计入（无架构）</translation>
    </message>
    <message>
        <source>hidden data-, tensor- and expert-parallel traffic x 16 SMs / SMs of the part</source>
        <translation>被隐藏的数据、张量和专家并行通信 x 16 个 SM / 该 GPU 的 SM 数</translation>
    </message>
    <message>
        <source>4 exchanges per MoE layer: T x h to each other node holding a token&apos;s experts, then over NVLink to the k experts&apos; GPUs</source>
        <translation>每个 MoE 层 4 次交换：T x h 发往持有该 token 专家的每个其他节点，再经 NVLink 转发到 k 个专家所在的 GPU</translation>
    </message>
    <message>
        <source>4 exchanges per MoE layer, each beside one sub-module of another micro-batch&apos;s pass (attention, experts): what that sub-module does not hide, plus the passes without a partner</source>
        <translation>每个 MoE 层 4 次交换，每次与另一个微批次某一子模块（注意力、专家）的计算并行：该子模块未能隐藏的部分，加上没有配对的前向/反向</translation>
    </message>
    <message>
        <source>sum over the stage&apos;s GEMMs of 2mnk / (the measured rate of that shape where the part has a published table by shape, else peak x GEMM fraction x quantization), backward = data + weight gradients; with flash attention the engine&apos;s attention kernel at its published throughput</source>
        <translation>对该阶段所有 GEMM 求和 2mnk / (该器件有按形状公布的实测表时取该形状的实测速率，否则为 峰值 x GEMM 比例 x 量化)，反向 = 数据梯度 + 权重梯度；使用 flash attention 时按引擎注意力 kernel 的公布吞吐量计</translation>
    </message>
    <message>
        <source>one step over C + C P / O tokens (decode plus prompt chunks)</source>
        <translation>一步处理 C + C P / O 个 token（解码加提示分块）</translation>
    </message>
    <message>
        <source>decode step of C + C / O prefills of one prompt</source>
        <translation>C 个序列的解码步 + C / O 次单个提示的预填充</translation>
    </message>
    <message>
        <source>largest B whose KV cache fits in capacity - weights - activations(B)</source>
        <translation>KV 缓存放得进 容量 - 权重 - 激活(B) 的最大 B</translation>
    </message>
    <message>
        <source>largest B whose KV cache fits in f x capacity - weights - activations(B)</source>
        <translation>KV 缓存放得进 f x 容量 - 权重 - 激活(B) 的最大 B</translation>
    </message>
    <message>
        <source>largest B whose KV cache fits in f x capacity - weights</source>
        <translation>KV 缓存放得进 f x 容量 - 权重 的最大 B</translation>
    </message>
    <message>
        <source>largest B whose KV cache fits in f x (capacity - weights - activations(B))</source>
        <translation>KV 缓存放得进 f x (容量 - 权重 - 激活(B)) 的最大 B</translation>
    </message>
    <message>
        <source>the mean step: (1 - q) x a decode of C alone + q x a pass over C and a chunk of P / ceil(P / k) tokens, q = (C / O) ceil(P / k), k = min(P, max_batched_tokens - C)</source>
        <translation>平均每步：(1 - q) x 只解码 C 个序列 + q x 处理 C 个序列加一块 P / ceil(P / k) 个 token 的提示，q = (C / O) ceil(P / k)，k = min(P, max_batched_tokens - C)</translation>
    </message>
    <message>
        <source>(C / B - 1) x end-to-end at B, B = the sequences the engine&apos;s KV cache holds; part of the time to first token</source>
        <translation>(C / B - 1) x B 时的端到端时间，B = 引擎 KV 缓存能容纳的序列数；计入首 token 时间</translation>
    </message>
    <message>
        <source>ceil(P / k) steps over B + k tokens, k = min(P, max_batched_tokens - B), + the prefill wait + the wait for admission</source>
        <translation>ceil(P / k) 步，每步 B + k 个 token，k = min(P, max_batched_tokens - B)，+ 预填充等待 + 等待准入</translation>
    </message>
    <message>
        <source>ceil(P / k) steps over C + k tokens, k = min(P, max_batched_tokens - C), + the prefill wait</source>
        <translation>ceil(P / k) 步，每步 C + k 个 token，k = min(P, max_batched_tokens - C)，+ 预填充等待</translation>
    </message>
    <message>
        <source>the step under way when the request arrives (one ITL; none with one client) + where a step&apos;s budget takes one prompt, the prompts queued ahead: W - rho S / 2, W = Pollaczek-Khinchine&apos;s wait for the other C - 1 clients&apos; prompts of S each (the prompt&apos;s own chunk steps), rho = (C - 1) S / cycle; part of the time to first token</source>
        <translation>请求到达时进行中的一步（一个 ITL；只有一个客户端时为零）+ 若每步预算只容纳一个提示，再加排在前面的提示：W - rho S / 2，W = 其余 C - 1 个客户端的提示（每个用时 S，即该提示自己的分块步）的 Pollaczek-Khinchine 等待时间，rho = (C - 1) S / 周期；计入首 token 时间</translation>
    </message>
    <message>
        <source>prefill of one prompt + the decode step under way + the wait for admission</source>
        <translation>单个提示的预填充 + 进行中的解码步 + 等待准入的时间</translation>
    </message>
    <message>
        <source>prefill of one prompt + the decode step under way (none with one client)</source>
        <translation>单个提示的预填充 + 进行中的解码步（只有一个客户端时为零）</translation>
    </message>
    <message>
        <source>sliding-window attention: keys and values all-gathered over the cp ranks forward, again backward, and their gradients reduce-scattered, none of it overlapped</source>
        <translation>滑动窗口注意力：前向在 cp 个 rank 间 all-gather 键和值，反向再 all-gather 一次，并对其梯度做 reduce-scatter，均不与计算重叠</translation>
    </message>
    <message>
        <source>2 layers&apos; full parameters (the one computed, the next prefetched) / tp x bytes(param)</source>
        <translation>2 层的完整参数（正在计算的一层与预取的下一层）/ tp x bytes(param)</translation>
    </message>
    <message>
        <source>4 x micro-batch x s / cp x h x bytes(act) / (tp with sequence parallelism): an activation and a gradient received, two being sent</source>
        <translation>4 x 微批次 x s / cp x h x bytes(act) / （序列并行时除以 tp）：接收的一份激活值和一份梯度，以及正在发送的两份</translation>
    </message>
    <message>
        <source>params + grads + master + optimizer + activations + ZeRO-3 gathered layers + pipeline buffers</source>
        <translation>参数 + 梯度 + 主权重 + 优化器状态 + 激活值 + ZeRO-3 聚集的层 + 流水线缓冲区</translation>
    </message>
    <message>
        <source>L x (kv_lora_rank + qk_rope_head_dim) x bytes</source>
        <translation>L x (kv_lora_rank + qk_rope_head_dim) x 字节数</translation>
    </message>
    <message>
        <source>2 x L x kv_heads x head_dim x bytes</source>
        <translation>2 x L x kv_heads x head_dim x 字节数</translation>
    </message>
    <message>
        <source>((N - N_16) x bytes(weight_dtype) + N_16 x 2 B) / (tp x pp), N_16 the weights kept 16-bit: looked-up embeddings and, as the engine&apos;s checkpoints keep it, the output head</source>
        <translation>((N - N_16) x bytes(weight_dtype) + N_16 x 2 B) / (tp x pp)，N_16 为保持 16 位的权重：查表的嵌入，以及（与引擎的检查点一致）输出头</translation>
    </message>
    <message>
        <source>batch x (prompt + output) x KV bytes per token per GPU</source>
        <translation>批次 x (提示 + 输出) x 每 GPU 每 token 的 KV 字节数</translation>
    </message>
    <message>
        <source>batch x ((L - L_w) x context + L_w x min(context, W)) / L x KV bytes per token per GPU</source>
        <translation>批次 x ((L - L_w) x 上下文 + L_w x min(上下文, W)) / L x 每 GPU 每 token 的 KV 字节数</translation>
    </message>
    <message>
        <source>weights + KV cache + activations</source>
        <translation>权重 + KV 缓存 + 激活值</translation>
    </message>
    <message>
        <source>largest B with weights + B x cached positions (KV cache above) x KV per token per GPU + activations(B) &lt;= capacity</source>
        <translation>满足 权重 + B x 缓存的位置数（见上文 KV 缓存）x 每 GPU 每 token KV + 激活(B) &lt;= 容量 的最大 B</translation>
    </message>
    <message>
        <source>largest B with weights + B x context x KV per token per GPU + activations(B) &lt;= capacity</source>
        <translation>满足 权重 + B x 上下文 x 每 GPU 每 token KV + 激活(B) &lt;= 容量 的最大 B</translation>
    </message>
    <message>
        <source>ceil(batch / floor(max_batched_tokens / prompt)) x (GEMMs in waves of tiles: max(compute, weights read, dequantization, kernel floor) + attention + small kernels + 2 L all-reduces)</source>
        <translation>ceil(批次 / floor(max_batched_tokens / 提示)) x (按 tile 波次计的 GEMM：max(计算, 读权重, 反量化, kernel 下限) + 注意力 + 小 kernel + 2 L 次 all-reduce)</translation>
    </message>
    <message>
        <source>GEMMs (max of compute in waves, weights read / bandwidth, floor) + max(attention FLOPs / peak, KV read / bandwidth, L floors) + small kernels + 2 L all-reduces</source>
        <translation>GEMM（按波次计的计算、读权重 / 带宽、下限三者取最大）+ max(注意力 FLOPs / 峰值, 读 KV / 带宽, L 个下限) + 小 kernel + 2 L 次 all-reduce</translation>
    </message>
    <message>
        <source>2 L x min over NCCL&apos;s protocols (base latency + 2 (p - 1) x step latency + 2 (p - 1) / p x B h 2 B / protocol&apos;s share of the link)</source>
        <translation>2 L x 对 NCCL 各协议取最小 (基础延迟 + 2 (p - 1) x 每步延迟 + 2 (p - 1) / p x B h 2 B / 该协议可用的链路带宽)</translation>
    </message>
    <message>
        <source>2 L x min(custom latency + 2 (p - 1) / p x B h 2 B / (0.16 link), NCCL ring); NCCL ring above 8 MiB</source>
        <translation>2 L x min(自定义实现的延迟 + 2 (p - 1) / p x B h 2 B / (0.16 x 链路带宽), NCCL 环形)；超过 8 MiB 时用 NCCL 环形</translation>
    </message>
    <message>
        <source>replicas x C x O / (TTFT + (O - 1) ITL)</source>
        <translation>副本数 x C x O / (TTFT + (O - 1) ITL)</translation>
    </message>
    <message>
        <source>replicas x batch x output / (prefill + output steps)</source>
        <translation>副本数 x 批次 x 输出 / (预填充 + 输出各步)</translation>
    </message>
    <message>
        <source>1 / decode step</source>
        <translation>1 / 解码单步</translation>
    </message>
    <message>
        <source>price per GPU-hour x GPUs / 3600 / tokens per s x 1e6</source>
        <translation>每 GPU 小时价格 x GPU 数 / 3600 / 每秒 token 数 x 1e6</translation>
    </message>
    <message>
        <source>smallest B with 2 N_matmul B / peak &gt;= weights read / bandwidth</source>
        <translation>满足 2 N_matmul B / 峰值 &gt;= 读权重 / 带宽 的最小 B</translation>
    </message>
    <message>
        <source>N (given)</source>
        <translation>N（给定）</translation>
    </message>
    <message>
        <source>N = L x (attention + MLP + norms) + embeddings + final norm</source>
        <translation>N = L x (注意力 + MLP + 归一化) + 嵌入 + 最终归一化</translation>
    </message>
    <message>
        <source>FLOPs / (peak x MFU x GPUs x 86400 s)</source>
        <translation>FLOPs / (峰值 x MFU x GPU 数 x 86400 s)</translation>
    </message>
    <message>
        <source>dense %1 peak of %2 (no 2:4 sparsity)</source>
        <translation>%2 的稠密 %1 峰值（不含 2:4 稀疏）</translation>
    </message>
    <message>
        <source>peak x MFU x GPUs</source>
        <translation>峰值 x MFU x GPU 数</translation>
    </message>
    <message>
        <source>seconds x GPUs / 3600</source>
        <translation>秒数 x GPU 数 / 3600</translation>
    </message>
    <message>
        <source>N_gpu x bytes(param) / (dp x cp if ZeRO-3)</source>
        <translation>N_gpu x bytes(param) / (ZeRO-3 时除以 dp x cp)</translation>
    </message>
    <message>
        <source>N_gpu x bytes(grad) / (dp x cp if ZeRO &gt;= 2)</source>
        <translation>N_gpu x bytes(grad) / (ZeRO &gt;= 2 时除以 dp x cp)</translation>
    </message>
    <message>
        <source>N_gpu x bytes(master: fp32 copy, or none) / (dp x cp if ZeRO &gt;= 1)</source>
        <translation>N_gpu x bytes(master：fp32 副本，或没有) / (ZeRO &gt;= 1 时除以 dp x cp)</translation>
    </message>
    <message>
        <source>bytes(act) x B x D per layer x layers</source>
        <translation>每层 bytes(act) x B x D x 层数</translation>
    </message>
    <message>
        <source>params + grads + master + optimizer + activations</source>
        <translation>参数 + 梯度 + 主权重 + 优化器状态 + 激活值</translation>
    </message>
    <message>
        <source>floor(max_batched_tokens x O / (P + O)): a step carries each running sequence&apos;s decode and, on average, P / O prompt tokens for each</source>
        <translation>floor(max_batched_tokens x O / (P + O))：每一步承载每个运行中序列的解码，以及平均每个序列 P / O 个提示 token</translation>
    </message>
    <message>
        <source>max_batched_tokens: a decode step takes one token a sequence</source>
        <translation>max_batched_tokens：解码步中每个序列占一个 token</translation>
    </message>
    <message>
        <source>(C / B - 1) x end-to-end at B, B = the sequences the step&apos;s token budget keeps running; part of the time to first token</source>
        <translation>(C / B - 1) x B 时的端到端时间，B = 每步 token 预算可持续运行的序列数；计入首 token 时间</translation>
    </message>
    <message>
        <source>weights + requests in flight x one sequence&apos;s KV cache per GPU (as above) + activations at that batch</source>
        <translation>权重 + 在途请求数 x 每 GPU 一个序列的 KV 缓存（同上）+ 该批次下的激活值</translation>
    </message>
    <message>
        <source>max(prompts a pass x prompt, batch) x (2h + (qkv + MLP widths) / tp) x 2 B + batch x vocab / tp x 4 B; prompts a pass = min(batch, max_batched_tokens / prompt rounded down, at least 1)</source>
        <translation>max(每趟提示数 x 提示, 批次) x (2h + (qkv + MLP 宽度) / tp) x 2 B + 批次 x 词表 / tp x 4 B；每趟提示数 = min(批次, max_batched_tokens / 提示 向下取整，至少 1)</translation>
    </message>
    <message>
        <source>(N_dense / z + N_experts / z_experts) x bytes per parameter: the routed experts&apos; state sharded over their expert-data-parallel group, gpus / (etp x ep x pp)</source>
        <translation>(N_dense / z + N_experts / z_experts) x 每参数字节数：路由专家的状态在其专家数据并行组内分片，组大小为 gpus / (etp x ep x pp)</translation>
    </message>
    <message>
        <source>(pp - 1) / (v x micro-batches per step) (1F1B schedule, v virtual stages each)</source>
        <translation>(pp - 1) / (v x 每步微批次数)（1F1B 调度，每个 GPU v 个虚拟阶段）</translation>
    </message>
    <message>
        <source>bytes(act) x B x D x (kept layers / layers, sqrt checkpointing) per layer x layers + the recomputed segment&apos;s working set</source>
        <translation>bytes(act) x B x D x（保留层数 / 层数，sqrt 检查点）每层 x 层数 + 重计算段的工作集</translation>
    </message>
    <message>
        <source>per layer s·b·h·(34 + 5·a·s/h) at 16 bits with dropout (its masks left out without it), split by TP/SP, minus what flash attention / recomputation drop; x layers on the GPU x micro-batches in flight; on the output layer&apos;s stage, what the cross-entropy keeps of each logit: its fp32 softmax (4 bytes) or, computed in place (training.cross_entropy), the gradient over the 16-bit logits (2)</source>
        <translation>每层 s·b·h·(34 + 5·a·s/h)（16 位、含 dropout；不用 dropout 时去掉其掩码），按 TP/SP 切分，减去 flash attention / 重计算省掉的部分；x GPU 上的层数 x 同时在途的微批次数；输出层所在的流水线阶段另存交叉熵为每个 logit 保留的内容：其 fp32 softmax（4 字节），或原地计算时（training.cross_entropy）覆写在 16 位 logits 上的梯度（2 字节）</translation>
    </message>
    <message>
        <source>((N - N_16) x bytes(weight_dtype) + N_16 x 2 B) / (tp x pp) + L / pp x attention weights x (1 - 1 / tp) x bytes, N_16 the weights kept 16-bit; data-parallel attention keeps the attention weights whole on every GPU</source>
        <translation>((N - N_16) x bytes(weight_dtype) + N_16 x 2 B) / (tp x pp) + L / pp x 注意力权重 x (1 - 1 / tp) x 字节数，N_16 为保持 16 位的权重；数据并行注意力让每个 GPU 都保留完整的注意力权重</translation>
    </message>
    <message>
        <source>N x bytes(weight_dtype) / (tp x pp) + L / pp x attention weights x (1 - 1 / tp) x bytes: data-parallel attention keeps the attention weights whole on every GPU</source>
        <translation>N x bytes(weight_dtype) / (tp x pp) + L / pp x 注意力权重 x (1 - 1 / tp) x 字节数：数据并行注意力让每个 GPU 都保留完整的注意力权重</translation>
    </message>
</context>
<context>
    <name>tally::hardware</name>
    <message>
        <source>this field is required</source>
        <translation>此字段是必需的</translation>
    </message>
    <message>
        <source>a non-empty string is required</source>
        <translation>需要一个非空字符串</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>必须是数</translation>
    </message>
    <message>
        <source>must be a finite number &gt;= 0</source>
        <translation>必须是 &gt;= 0 的有限数</translation>
    </message>
    <message>
        <source>must be a finite number &gt; 0</source>
        <translation>必须是 &gt; 0 的有限数</translation>
    </message>
    <message>
        <source>must be an object (efficiency, measured_step_s, ...)</source>
        <translation>必须是一个对象（efficiency、measured_step_s 等）</translation>
    </message>
    <message>
        <source>must be a number in [0.01, 100]</source>
        <translation>必须是 [0.01, 100] 范围内的数</translation>
    </message>
    <message>
        <source>must be a number in [1e-9, 1e9] seconds</source>
        <translation>必须是 [1e-9, 1e9] 范围内的数，单位为秒</translation>
    </message>
    <message>
        <source>must be a number in [1e-12, 1e12] seconds</source>
        <translation>必须是 [1e-12, 1e12] 范围内的数，单位为秒</translation>
    </message>
    <message>
        <source>predicted_step_s / measured_step_s (%1)</source>
        <translation>predicted_step_s / measured_step_s（%1）</translation>
    </message>
    <message>
        <source>a hardware profile must be a JSON object</source>
        <translation>硬件配置必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>a non-empty id is required</source>
        <translation>需要一个非空的 id</translation>
    </message>
    <message>
        <source>one of builtin, custom, measured</source>
        <translation>以下之一：builtin, custom, measured</translation>
    </message>
    <message>
        <source>must be a number in [1e6, 1e16] bytes</source>
        <translation>必须是 [1e6, 1e16] 范围内的数，单位为字节</translation>
    </message>
    <message>
        <source>must be a number in [1e6, 1e16] bytes/s</source>
        <translation>必须是 [1e6, 1e16] 范围内的数，单位为字节/秒</translation>
    </message>
    <message>
        <source>must be an object of dtype: FLOP/s</source>
        <translation>必须是由 dtype: FLOP/s 组成的对象</translation>
    </message>
    <message>
        <source>keys must be fp64, fp32, tf32, bf16, fp16, fp8, fp4, int8</source>
        <translation>键必须是 fp64、fp32、tf32、bf16、fp16、fp8、fp4、int8</translation>
    </message>
    <message>
        <source>must be a number in [1e6, 1e21] FLOP/s (or 0: not given)</source>
        <translation>必须是 [1e6, 1e21] 范围内的数，单位为 FLOP/s（或 0：未给出）</translation>
    </message>
    <message>
        <source>at least one dtype needs a peak &gt; 0</source>
        <translation>至少要有一种 dtype 的峰值 &gt; 0</translation>
    </message>
    <message>
        <source>must be a number in [0, 1e6] W</source>
        <translation>必须是 [0, 1e6] 范围内的数，单位为 W</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>必须是一个对象</translation>
    </message>
    <message>
        <source>must be a number in [0, 1e16] bytes/s</source>
        <translation>必须是 [0, 1e16] 范围内的数，单位为字节/秒</translation>
    </message>
    <message>
        <source>must be a number in [0, 1e9] per GPU-hour</source>
        <translation>必须是 [0, 1e9] 范围内的数，单位为每 GPU 小时</translation>
    </message>
    <message>
        <source>must be an array of strings</source>
        <translation>必须是字符串数组</translation>
    </message>
    <message>
        <source>must be an array</source>
        <translation>必须是数组</translation>
    </message>
    <message>
        <source>one of fp64, fp32, tf32, bf16, fp16, fp8, fp4, int8</source>
        <translation>以下之一：fp64, fp32, tf32, bf16, fp16, fp8, fp4, int8</translation>
    </message>
    <message>
        <source>must be a number in [1e-12, 1e6] seconds</source>
        <translation>必须是 [1e-12, 1e6] 范围内的数，单位为秒</translation>
    </message>
    <message>
        <source>at most one time per dtype, shape and count</source>
        <translation>每种 dtype、形状和次数最多只有一个时间</translation>
    </message>
    <message>
        <source>must be an object of dtype: FLOP/s as printed</source>
        <translation>必须是由 dtype: 标称 FLOP/s 组成的对象</translation>
    </message>
    <message>
        <source>must be an object of field: [source indices]</source>
        <translation>必须是由 字段: [来源索引] 组成的对象</translation>
    </message>
    <message>
        <source>must be an array of indices into sources</source>
        <translation>必须是 sources 的索引数组</translation>
    </message>
    <message>
        <source>an index into sources (0 to %1 - 1)</source>
        <translation>sources 的一个索引（0 到 %1 - 1）</translation>
    </message>
    <message>
        <source>one of the built-in GPUs: %1</source>
        <translation>内置 GPU 之一：%1</translation>
    </message>
    <message>
        <source>must be a whole number in [1, 1e6]</source>
        <translation>必须是 [1, 1e6] 范围内的整数</translation>
    </message>
    <message>
        <source>must be a whole number in [1, 2^40]</source>
        <translation>必须是 [1, 2^40] 范围内的整数</translation>
    </message>
    <message>
        <source>the id of a built-in GPU, such as %1 (all: %2)</source>
        <translation>内置 GPU 的 id，例如 %1（全部：%2）</translation>
    </message>
    <message>
        <source>must be megatron, fsdp, fsdp_compile or deepspeed (the calibrating run&apos;s training.engine)</source>
        <translation>必须是 megatron、fsdp、fsdp_compile 或 deepspeed（校准所用运行的 training.engine）</translation>
    </message>
</context>
<context>
    <name>tally::help</name>
    <message>
        <source>2 to 6 saved plans side by side: GPUs, layout, memory, step, days, GPU-hours, cost, energy</source>
        <translation>并排比较 2 到 6 个已保存的计划：GPU、并行布局、内存、单步时间、天数、GPU 小时、成本、能耗</translation>
    </message>
    <message>
        <source>A built-in id (see `tally hardware list`)</source>
        <translation>内置 id（见 `tally hardware list`）</translation>
    </message>
    <message>
        <source>A plan as a framework&apos;s launch configuration (Megatron-LM arguments, NeMo overrides, torchtitan TOML, DeepSpeed JSON, accelerate YAML), or a serving plan as its engine&apos;s command (vllm serve, SGLang&apos;s launch_server, trtllm-serve)</source>
        <translation>把计划输出为训练框架的启动配置（Megatron-LM 参数、NeMo 覆盖项、torchtitan TOML、DeepSpeed JSON、accelerate YAML），或把推理服务计划输出为其引擎的启动命令（vllm serve、SGLang 的 launch_server、trtllm-serve）</translation>
    </message>
    <message>
        <source>A run&apos;s launch configuration (a Megatron-LM command line or its printed arguments, NeMo overrides, a torchtitan TOML, a DeepSpeed JSON, an accelerate YAML) as a plan spec, or a serving engine&apos;s command (vllm serve, sglang.launch_server, trtllm-serve) as a serving plan</source>
        <translation>把一次运行的启动配置（Megatron-LM 命令行或其打印出的参数、NeMo 覆盖项、torchtitan TOML、DeepSpeed JSON、accelerate YAML）读成计划，或把推理服务引擎的命令（vllm serve、sglang.launch_server、trtllm-serve）读成推理服务计划</translation>
    </message>
    <message>
        <source>A saved plan and its spec</source>
        <translation>一个已保存的计划及其计划文件</translation>
    </message>
    <message>
        <source>A stored probe run (tally probes list) whose measured roofs and points to show beside the promised ones</source>
        <translation>一次已保存的探测运行（tally probes list），在标称的屋顶和点旁显示其实测的屋顶和点</translation>
    </message>
    <message>
        <source>A value to convert into every format (e.g. 1e-8)</source>
        <translation>要转换为每种格式的值（例如 1e-8）</translation>
    </message>
    <message>
        <source>Add a custom profile copied from another (--from), or a measured one from a probe run (--from-run)</source>
        <translation>添加硬件配置：从另一个配置复制出自定义配置（--from），或由探测运行生成实测配置（--from-run）</translation>
    </message>
    <message>
        <source>Add the profile a JSON file holds (its id and name)</source>
        <translation>添加 JSON 文件中的硬件配置（沿用其 id 和名称）</translation>
    </message>
    <message>
        <source>Board power in watts</source>
        <translation>板卡功耗，单位瓦</translation>
    </message>
    <message>
        <source>CUDA device ordinal (default 0)</source>
        <translation>CUDA 设备序号（默认 0）</translation>
    </message>
    <message>
        <source>Change fields of a custom or measured profile</source>
        <translation>修改自定义或实测硬件配置的字段</translation>
    </message>
    <message>
        <source>Continuous batching at each of these concurrencies, e.g. 1,16,64,256: TTFT, ITL and throughput in one table (JSON: concurrency_sweep)</source>
        <translation>在这些并发数下分别做连续批处理，例如 1,16,64,256：首 token 时间（TTFT）、token 间延迟（ITL）和吞吐量列在一张表中（JSON：concurrency_sweep）</translation>
    </message>
    <message>
        <source>Continuous batching: requests in flight per replica (sets inference.concurrency)</source>
        <translation>连续批处理：每个副本同时在途的请求数（设置 inference.concurrency）</translation>
    </message>
    <message>
        <source>Continuous batching: requests per second the deployment must complete; the concurrency that does it is solved for</source>
        <translation>连续批处理：部署每秒必须完成的请求数；据此求解所需的并发数</translation>
    </message>
    <message>
        <source>Dense peak of a dtype, DTYPE=FLOP/s (bf16=989.5e12; 0 removes it); repeatable</source>
        <translation>某一数据类型的稠密峰值，DTYPE=FLOP/s（bf16=989.5e12；0 表示删除）；可重复给出</translation>
    </message>
    <message>
        <source>Desktop app: draw the window into this PNG file and exit</source>
        <translation>桌面应用：把窗口绘制到此 PNG 文件后退出</translation>
    </message>
    <message>
        <source>Desktop app: open this plan (JSON) instead of the autosaved one</source>
        <translation>桌面应用：打开此计划（JSON），而不是自动保存的计划</translation>
    </message>
    <message>
        <source>Desktop app: show this stored probe run of the workspace (the Probe panel&apos;s results and the roofline&apos;s measured roofs and points)</source>
        <translation>桌面应用：显示工作区中这次已保存的探测运行（“探测”面板中的结果，以及 roofline 上实测的屋顶和点）</translation>
    </message>
    <message>
        <source>Desktop app: the panel in front (memory, time, layouts, roofline, formats, inference, profiles, plans, compare, probe)</source>
        <translation>桌面应用：显示在最前面的面板（memory、time、layouts、roofline、formats、inference、profiles、plans、compare、probe）</translation>
    </message>
    <message>
        <source>Dimensions separated by x or commas, e.g. 4x8</source>
        <translation>各维度，用 x 或逗号分隔，例如 4x8</translation>
    </message>
    <message>
        <source>Display program version information and exit</source>
        <translation>显示程序版本信息并退出</translation>
    </message>
    <message>
        <source>Do not list what was read on standard error</source>
        <translation>不在标准错误上列出读取了哪些内容</translation>
    </message>
    <message>
        <source>Evaluate a plan: memory per GPU, FLOPs, time, cost</source>
        <translation>评估计划：每 GPU 内存、FLOPs、时间、成本</translation>
    </message>
    <message>
        <source>Evaluate one plan on 2 to 6 profiles side by side (fits, memory headroom, days, GPU-hours, cost, ridge)</source>
        <translation>在 2 到 6 个硬件配置上并排评估同一个计划（能否放下、内存余量、天数、GPU 小时、成本、加速器强度）</translation>
    </message>
    <message>
        <source>Every built-in accelerator with its peaks</source>
        <translation>所有内置加速器及其峰值</translation>
    </message>
    <message>
        <source>Every probe run, newest first</source>
        <translation>所有探测运行，最新的在前</translation>
    </message>
    <message>
        <source>Every profile, built-in ones first</source>
        <translation>所有硬件配置，内置的在前</translation>
    </message>
    <message>
        <source>Every saved plan, by name</source>
        <translation>所有已保存的计划，按名称排列</translation>
    </message>
    <message>
        <source>Every valid parallel layout (tp, pp, context parallel, dp, ZeRO, micro-batch, recompute, sequence parallel, interleave, expert parallel) that fits, ranked by predicted step time or cost</source>
        <translation>所有放得下的有效并行布局（tp、pp、上下文并行、dp、ZeRO、微批次、重计算、序列并行、交错、专家并行），按预测单步时间或成本排序</translation>
    </message>
    <message>
        <source>Excludes</source>
        <translation>排除</translation>
    </message>
    <message>
        <source>FLOAT</source>
        <translation>FLOAT</translation>
    </message>
    <message>
        <source>Fit the predicted step to a measured one (--step-s, or a Megatron-LM / NeMo / torchtitan log) and store the efficiency in a workspace profile</source>
        <translation>把预测的单步时间拟合到实测值（--step-s，或 Megatron-LM / NeMo / torchtitan 日志），并把效率存入工作区中的硬件配置</translation>
    </message>
    <message>
        <source>For an nccl-tests log that does not name its test (older versions) and whose file name does not either: all_reduce, all_gather, reduce_scatter, alltoall or sendrecv</source>
        <translation>用于内容（旧版本）和文件名都没有写明测试名的 nccl-tests 日志：all_reduce、all_gather、reduce_scatter、alltoall 或 sendrecv</translation>
    </message>
    <message>
        <source>Hardware profiles: built-in (read-only), custom copies, measured by a probe</source>
        <translation>硬件配置：内置（只读）、自定义副本、由探测实测</translation>
    </message>
    <message>
        <source>How many layouts to list (default 10)</source>
        <translation>列出多少个并行布局（默认 10）</translation>
    </message>
    <message>
        <source>INT</source>
        <translation>INT</translation>
    </message>
    <message>
        <source>Id of the new profile (letters, digits, . _ -)</source>
        <translation>新硬件配置的 id（字母、数字、. _ -）</translation>
    </message>
    <message>
        <source>Id of the profile to store it in (default: &lt;gpu&gt;-calibrated, or the spec&apos;s own profile when it is calibrated already)</source>
        <translation>存入的硬件配置的 id（默认：&lt;gpu&gt;-calibrated；若计划自身的硬件配置已校准，则为该配置）</translation>
    </message>
    <message>
        <source>Import a probe run recorded elsewhere: tally-probe JSON lines (ssh gpu tally-probe &gt; run.jsonl, a Slurm job&apos;s output) or an nccl-tests log (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf, sendrecv_perf)</source>
        <translation>导入在别处记录的探测运行：tally-probe JSON 行（ssh gpu tally-probe &gt; run.jsonl，或 Slurm 作业的输出），或 nccl-tests 日志（all_reduce_perf、all_gather_perf、reduce_scatter_perf、alltoall_perf、sendrecv_perf）</translation>
    </message>
    <message>
        <source>Language of the window and of the text output: en or zh_CN (default: the window&apos;s last choice, else LANG)</source>
        <translation>窗口和文本输出的语言：en 或 zh_CN（默认：窗口上次的选择，否则取 LANG）</translation>
    </message>
    <message>
        <source>Largest cluster to try (default 2^20)</source>
        <translation>尝试的最大集群规模（默认 2^20）</translation>
    </message>
    <message>
        <source>List settings Tally does not know instead of refusing them</source>
        <translation>列出 Tally 不认识的设置，而不是拒绝它们</translation>
    </message>
    <message>
        <source>List the model presets and their sources</source>
        <translation>列出模型预设及其来源</translation>
    </message>
    <message>
        <source>Measure exactly the GEMMs this plan spec runs (forward, data and weight gradients of every layer and the output layer, at their tensor-parallel shapes, in its compute dtype) with the gemm_shapes test, and print each one&apos;s measured time beside the model&apos;s on the spec&apos;s profile (or --profile). A profile made from the run (tally profiles add --from-run RUN --base ID) makes predictions use those times</source>
        <translation>用 gemm_shapes 测试精确测量此计划运行的 GEMM（每一层和输出层的前向、数据梯度和权重梯度，按其张量并行形状，使用计划的计算数据类型），并把每个 GEMM 的实测时间与性能模型在计划的硬件配置（或 --profile）上给出的时间并列打印。由这次运行生成的硬件配置（tally profiles add --from-run RUN --base ID）会让预测使用这些时间</translation>
    </message>
    <message>
        <source>Measure this machine, or an ssh host (--remote), with tally-probe (a GPU through CUDA, or the CPU), print each result as it arrives, and save the run in the workspace</source>
        <translation>用 tally-probe 测量本机或某台 ssh 主机（--remote）（通过 CUDA 测 GPU，或测 CPU），每得到一个结果就打印出来，并把这次运行保存到工作区</translation>
    </message>
    <message>
        <source>Measured seconds per optimizer step</source>
        <translation>实测的单步时间（每个优化器步的秒数）</translation>
    </message>
    <message>
        <source>Memory bandwidth in bytes/s (3.35e12)</source>
        <translation>内存带宽，单位 bytes/s（3.35e12）</translation>
    </message>
    <message>
        <source>Memory of a tensor: elements x bytes per value (e.g. tally tensor 49152x12288)</source>
        <translation>张量的内存：元素数 x 每个数值的字节数（例如 tally tensor 49152x12288）</translation>
    </message>
    <message>
        <source>Memory per GPU in bytes (80e9)</source>
        <translation>每 GPU 内存，单位字节（80e9）</translation>
    </message>
    <message>
        <source>Name of a new profile (default: &lt;name&gt; (calibrated))</source>
        <translation>新硬件配置的名称（默认：&lt;name&gt;（已校准））</translation>
    </message>
    <message>
        <source>Name of the new profile</source>
        <translation>新硬件配置的名称</translation>
    </message>
    <message>
        <source>Name of the plan</source>
        <translation>计划的名称</translation>
    </message>
    <message>
        <source>Name or id</source>
        <translation>名称或 id</translation>
    </message>
    <message>
        <source>Names or ids</source>
        <translation>一个或多个名称或 id</translation>
    </message>
    <message>
        <source>Needs</source>
        <translation>需要</translation>
    </message>
    <message>
        <source>New name</source>
        <translation>新名称</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Number format (default fp32, PyTorch&apos;s default)</source>
        <translation>数值格式（默认 fp32，即 PyTorch 的默认格式）</translation>
    </message>
    <message>
        <source>Number formats: bits, range, precision, and what a value becomes in each</source>
        <translation>数值格式：位数、范围、精度，以及一个值在每种格式中变成什么</translation>
    </message>
    <message>
        <source>OPTIONS</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>One accelerator with every field and source</source>
        <translation>一个加速器的全部字段及来源</translation>
    </message>
    <message>
        <source>One probe run with its results</source>
        <translation>一次探测运行及其结果</translation>
    </message>
    <message>
        <source>One profile with every field</source>
        <translation>一个硬件配置的全部字段</translation>
    </message>
    <message>
        <source>Only these tests, comma-separated (tally-probe --list --backend B names them)</source>
        <translation>只运行这些测试，用逗号分隔（tally-probe --list --backend B 会列出测试名）</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Overwrite the plan of that name if there is one</source>
        <translation>若已有同名计划，则覆盖它</translation>
    </message>
    <message>
        <source>Plan serving: memory per GPU, KV cache, time to first token, decode step, throughput, cost per token</source>
        <translation>规划推理服务：每 GPU 内存、KV 缓存、首 token 时间、解码单步、吞吐量、每 token 成本</translation>
    </message>
    <message>
        <source>Plan spec (JSON file; - reads standard input)</source>
        <translation>计划文件（JSON 文件；- 表示读取标准输入）</translation>
    </message>
    <message>
        <source>Plan spec with an inference block (- reads stdin)</source>
        <translation>带 inference 块的计划文件（- 表示读取标准输入）</translation>
    </message>
    <message>
        <source>Positionals</source>
        <translation>位置参数</translation>
    </message>
    <message>
        <source>Print JSON instead of a table</source>
        <translation>输出 JSON 而不是表格</translation>
    </message>
    <message>
        <source>Print a JSON array</source>
        <translation>输出一个 JSON 数组</translation>
    </message>
    <message>
        <source>Print a profile&apos;s JSON (for `profiles import`)</source>
        <translation>输出硬件配置的 JSON（供 `profiles import` 使用）</translation>
    </message>
    <message>
        <source>Print one JSON document at the end instead of a table (progress still goes to stderr)</source>
        <translation>最后输出一个 JSON 文档而不是表格（进度仍写到标准错误）</translation>
    </message>
    <message>
        <source>Print one JSON object</source>
        <translation>输出一个 JSON 对象</translation>
    </message>
    <message>
        <source>Print one JSON object instead of a table</source>
        <translation>输出一个 JSON 对象而不是表格</translation>
    </message>
    <message>
        <source>Print this help message and exit</source>
        <translation>打印此帮助信息并退出</translation>
    </message>
    <message>
        <source>Probe run id</source>
        <translation>探测运行 id</translation>
    </message>
    <message>
        <source>Probe run to measure from</source>
        <translation>从中取实测结果的探测运行</translation>
    </message>
    <message>
        <source>Profile JSON (from `profiles export`; - reads stdin)</source>
        <translation>硬件配置 JSON（来自 `profiles export`；- 表示读取标准输入）</translation>
    </message>
    <message>
        <source>Profile id</source>
        <translation>硬件配置 id</translation>
    </message>
    <message>
        <source>Profile ids, comma-separated (a,b,c)</source>
        <translation>硬件配置 id，用逗号分隔（a,b,c）</translation>
    </message>
    <message>
        <source>Profile to copy (built-in or stored)</source>
        <translation>要复制的硬件配置（内置或已保存的）</translation>
    </message>
    <message>
        <source>Profile whose dense peaks and bandwidth each result is a fraction of (built-in or stored; default: the catalog entry matching the device name, if any)</source>
        <translation>各结果以其稠密峰值和带宽为基准计算比例的硬件配置（内置或已保存的；默认：名称与设备名匹配的目录条目，如有）</translation>
    </message>
    <message>
        <source>REQUIRED</source>
        <translation>必需</translation>
    </message>
    <message>
        <source>Remove a custom or measured profile</source>
        <translation>删除自定义或实测硬件配置</translation>
    </message>
    <message>
        <source>Remove a saved plan</source>
        <translation>删除已保存的计划</translation>
    </message>
    <message>
        <source>Remove a stored probe run and its results (refused while a measured profile was made from it, or while it is being recorded)</source>
        <translation>删除一次已保存的探测运行及其结果（若已有实测硬件配置由它生成，或它正在记录中，则拒绝删除）</translation>
    </message>
    <message>
        <source>Remove it even when saved plans run on it (they then need another GPU)</source>
        <translation>即使有已保存的计划在它上面运行也删除（这些计划随后需要换一个 GPU）</translation>
    </message>
    <message>
        <source>Run tally-probe as the ranks of a cluster launcher, e.g. &quot;srun -N 2 --ntasks-per-node 8 --gpus-per-node 8&quot; or &quot;mpirun -np 16&quot; (one rank per GPU; with --remote, on that host&apos;s cluster). The backend defaults to nccl (collectives across the GPUs); tcp runs the same on CPU ranks. The ranks meet through a file in the working folder, which must be on a filesystem every node shares</source>
        <translation>以集群启动器的各 rank 运行 tally-probe，例如 &quot;srun -N 2 --ntasks-per-node 8 --gpus-per-node 8&quot; 或 &quot;mpirun -np 16&quot;（每个 GPU 一个 rank；与 --remote 同用时，在该主机的集群上运行）。后端默认为 nccl（GPU 之间的集合通信）；tcp 在 CPU rank 上运行同样的测试。各 rank 通过工作目录中的一个文件会合，该目录必须位于所有节点共享的文件系统上</translation>
    </message>
    <message>
        <source>Run tally-probe on this ssh host (HOST or USER@HOST) instead of here; the results stream back and are saved here. The ssh client is $TALLY_SSH when set, else ssh; it must log in without a password prompt (a key or an agent)</source>
        <translation>在此 ssh 主机（HOST 或 USER@HOST）上而不是本机运行 tally-probe；结果会流式传回并保存在本机。ssh 客户端为 $TALLY_SSH（若已设置），否则为 ssh；它必须无需输入密码即可登录（使用密钥或 agent）</translation>
    </message>
    <message>
        <source>SUBCOMMAND</source>
        <translation>子命令</translation>
    </message>
    <message>
        <source>SUBCOMMANDS</source>
        <translation>子命令</translation>
    </message>
    <message>
        <source>Save a spec file as a named plan</source>
        <translation>把计划文件保存为一个命名的计划</translation>
    </message>
    <message>
        <source>Saved plans</source>
        <translation>已保存的计划</translation>
    </message>
    <message>
        <source>Small sizes and few samples (a CPU run takes ~15 s)</source>
        <translation>小尺寸、少量样本（CPU 运行约需 15 s）</translation>
    </message>
    <message>
        <source>Solve for a quantity under a spec&apos;s recipe</source>
        <translation>按计划的设定求解某个量</translation>
    </message>
    <message>
        <source>Stop the probe as hung when it prints nothing for this many seconds</source>
        <translation>探测在这么多秒内没有任何输出时，视为挂起并停止</translation>
    </message>
    <message>
        <source>Store it under this id instead</source>
        <translation>改用此 id 保存</translation>
    </message>
    <message>
        <source>Store it under this name instead</source>
        <translation>改用此名称保存</translation>
    </message>
    <message>
        <source>Stored probe runs and their results</source>
        <translation>已保存的探测运行及其结果</translation>
    </message>
    <message>
        <source>Subcommands</source>
        <translation>子命令</translation>
    </message>
    <message>
        <source>TEXT</source>
        <translation>TEXT</translation>
    </message>
    <message>
        <source>Tally: plan the resources of training a large language model, and measure the GPU it will run on.</source>
        <translation>Tally：规划训练大语言模型所需的资源，并测量它将运行的 GPU。</translation>
    </message>
    <message>
        <source>The built-in hardware catalog</source>
        <translation>内置硬件目录</translation>
    </message>
    <message>
        <source>The configuration (- reads standard input)</source>
        <translation>配置文件（- 表示读取标准输入）</translation>
    </message>
    <message>
        <source>The file to import</source>
        <translation>要导入的文件</translation>
    </message>
    <message>
        <source>The largest batch of sequences that fits at the full context (prompt + output tokens)</source>
        <translation>在完整上下文（提示 + 输出 token）下放得下的最大序列批次</translation>
    </message>
    <message>
        <source>The largest model (parameter count) that fits the cluster: model state only, unless the spec sets solver.include_activations</source>
        <translation>集群放得下的最大模型（参数量）：只计模型状态，除非计划设置了 solver.include_activations</translation>
    </message>
    <message>
        <source>The model&apos;s Hugging Face config.json (DeepSpeed and accelerate configs do not describe the model; a serving command&apos;s checkpoint of no preset)</source>
        <translation>模型的 Hugging Face config.json（DeepSpeed 和 accelerate 配置不描述模型；推理服务命令中的检查点不属于任何预设时也需要它）</translation>
    </message>
    <message>
        <source>The roofline of a spec&apos;s GPU, its ops and the model&apos;s own layers</source>
        <translation>计划所用 GPU 的 roofline，以及其上的运算和模型自身的各层</translation>
    </message>
    <message>
        <source>The smallest cluster (whole nodes) that trains the spec&apos;s tokens in D days</source>
        <translation>在 D 天内训练完计划中 token 数的最小集群（整节点）</translation>
    </message>
    <message>
        <source>The spec the run was made with (JSON; - reads stdin)</source>
        <translation>该次运行所用的计划（JSON；- 表示读取标准输入）</translation>
    </message>
    <message>
        <source>The tally-probe executable (default: $TALLY_PROBE, beside tally, the build tree&apos;s gpu_probe/, then PATH)</source>
        <translation>tally-probe 可执行文件（默认依次查找：$TALLY_PROBE、tally 所在目录、构建目录的 gpu_probe/、PATH）</translation>
    </message>
    <message>
        <source>The world size, where the file leaves it to the launcher</source>
        <translation>world size（总进程数），用于文件把它留给启动器决定的情况</translation>
    </message>
    <message>
        <source>Training log: Megatron-LM/NeMo &quot;elapsed time per iteration (ms)&quot;, NeMo &quot;train_step_timing in s&quot; or torchtitan &quot;tps&quot;</source>
        <translation>训练日志：Megatron-LM/NeMo 的 &quot;elapsed time per iteration (ms)&quot;、NeMo 的 &quot;train_step_timing in s&quot; 或 torchtitan 的 &quot;tps&quot;</translation>
    </message>
    <message>
        <source>Training time allowed, days</source>
        <translation>允许的训练时间，单位天</translation>
    </message>
    <message>
        <source>UINT</source>
        <translation>UINT</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用法</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <source>What one GPU-hour of the part costs (compare prices each part at its own; none removes it)</source>
        <translation>该硬件每 GPU 小时的价格（compare 按每种硬件自己的价格计算；none 表示删除价格）</translation>
    </message>
    <message>
        <source>With --from-run: make the profile from a run whose status is failed (it stopped before its end, or a test failed) out of the passed, validated results it has</source>
        <translation>与 --from-run 同用：即使运行状态为失败（提前停止，或有测试失败），也用其中已通过验证的结果生成硬件配置</translation>
    </message>
    <message>
        <source>With --from-run: profile whose other figures to keep</source>
        <translation>与 --from-run 同用：作为基础的硬件配置，其余数据沿用它的</translation>
    </message>
    <message>
        <source>With --launcher: the file the ranks meet through (default: .tally-probe-bootstrap-PID-TIME in the working folder)</source>
        <translation>与 --launcher 同用：各 rank 会合所用的文件（默认：工作目录中的 .tally-probe-bootstrap-PID-TIME）</translation>
    </message>
    <message>
        <source>With --log: the rank whose lines count in a log of several ([rankN]: prefixes; default: the rank the framework prints its timing from, Megatron-LM&apos;s last, NeMo&apos;s and torchtitan&apos;s 0)</source>
        <translation>与 --log 同用：在含多个 rank 的日志（带 [rankN]: 前缀）中采用哪个 rank 的行（默认：框架打印计时的 rank，Megatron-LM 为最后一个，NeMo 和 torchtitan 为 0）</translation>
    </message>
    <message>
        <source>With --log: timing records dropped from the start as warm-up (default 2)</source>
        <translation>与 --log 同用：从开头丢弃作为预热的计时记录数（默认 2）</translation>
    </message>
    <message>
        <source>With --remote: the tally-probe executable on the remote host (default: tally-probe on its PATH)</source>
        <translation>与 --remote 同用：远程主机上的 tally-probe 可执行文件（默认：其 PATH 中的 tally-probe）</translation>
    </message>
    <message>
        <source>With --to vllm|sglang|tensorrt_llm: the model&apos;s checkpoint, a Hugging Face id or a local path (default: the preset&apos;s, or the model&apos;s name where it is a Hugging Face id)</source>
        <translation>与 --to vllm|sglang|tensorrt_llm 同用：模型的检查点，Hugging Face id 或本地路径（默认：预设的检查点，或在模型名称是 Hugging Face id 时用该名称）</translation>
    </message>
    <message>
        <source>Workspace database</source>
        <translation>工作区数据库</translation>
    </message>
    <message>
        <source>Workspace database (for custom and measured GPUs)</source>
        <translation>工作区数据库（用于自定义和实测的 GPU）</translation>
    </message>
    <message>
        <source>Workspace file</source>
        <translation>工作区文件</translation>
    </message>
    <message>
        <source>Workspace file (default: %1)</source>
        <translation>工作区文件（默认：%1）</translation>
    </message>
    <message>
        <source>Workspace file (default: %1); with --screenshot, without it: an empty scratch workspace</source>
        <translation>工作区文件（默认：%1）；与 --screenshot 同用且未给出此项时：一个空的临时工作区</translation>
    </message>
    <message>
        <source>Write the spec to FILE (default: stdout)</source>
        <translation>把计划写入 FILE（默认：标准输出）</translation>
    </message>
    <message>
        <source>Write to FILE (default: standard output)</source>
        <translation>写入 FILE（默认：标准输出）</translation>
    </message>
    <message>
        <source>auto (from the content), tally-probe or nccl-tests</source>
        <translation>auto（根据内容判断）、tally-probe 或 nccl-tests</translation>
    </message>
    <message>
        <source>cuda (an NVIDIA GPU), cpu (this machine&apos;s cores and memory), nccl (the collectives between the GPUs a --launcher starts) or tcp (the same on CPU ranks, without GPUs). Default: nccl with --launcher; else cuda when the probe was built with CUDA and a GPU answers, else cpu. Without a GPU or driver, --backend cuda says so in one line, measures nothing and exits 1: use --backend cpu there</source>
        <translation>cuda（NVIDIA GPU）、cpu（本机的 CPU 核心和内存）、nccl（--launcher 启动的各 GPU 之间的集合通信）或 tcp（在 CPU rank 上做同样的测量，无需 GPU）。默认：给出 --launcher 时为 nccl；否则若探测程序带 CUDA 构建且有 GPU 响应则为 cuda，否则为 cpu。没有 GPU 或驱动时，--backend cuda 会用一行说明原因，不做任何测量并以 1 退出：这时请用 --backend cpu</translation>
    </message>
    <message>
        <source>megatron|nemo|torchtitan|deepspeed|accelerate|vllm|sglang|tensorrt_llm</source>
        <translation>megatron|nemo|torchtitan|deepspeed|accelerate|vllm|sglang|tensorrt_llm</translation>
    </message>
    <message>
        <source>megatron|nemo|torchtitan|deepspeed|accelerate|vllm|sglang|tensorrt_llm (default: from the file)</source>
        <translation>megatron|nemo|torchtitan|deepspeed|accelerate|vllm|sglang|tensorrt_llm（默认：根据文件判断）</translation>
    </message>
    <message>
        <source>time (default) or cost</source>
        <translation>time（默认）或 cost</translation>
    </message>
</context>
<context>
    <name>tally::hf_config</name>
    <message>
        <source>the config.json needs this key</source>
        <translation>config.json 需要这个键</translation>
    </message>
    <message>
        <source>must list one layer type per layer (num_hidden_layers = %1)</source>
        <translation>必须为每层列出一个层类型（num_hidden_layers = %1）</translation>
    </message>
    <message>
        <source>each entry must be &quot;full_attention&quot; or &quot;sliding_attention&quot;</source>
        <translation>每一项必须是 &quot;full_attention&quot; 或 &quot;sliding_attention&quot;</translation>
    </message>
    <message>
        <source>the config&apos;s layers use sliding-window attention, which needs a sliding_window of at least 1 position</source>
        <translation>该配置的层使用滑动窗口注意力，需要至少 1 个位置的 sliding_window</translation>
    </message>
    <message>
        <source>a config.json must hold a JSON object</source>
        <translation>config.json 必须包含一个 JSON 对象</translation>
    </message>
    <message>
        <source>a gemma3 config.json holds its language model in text_config</source>
        <translation>gemma3 的 config.json 把语言模型放在 text_config 中</translation>
    </message>
    <message>
        <source>supported: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gpt_oss, gemma2, gemma3 / gemma3_text, deepseek_v3</source>
        <translation>支持的类型：llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gpt_oss, gemma2, gemma3 / gemma3_text, deepseek_v3</translation>
    </message>
    <message>
        <source>Tally models shared experts as multiples of moe_intermediate_size (%1)</source>
        <translation>Tally 把共享专家按 moe_intermediate_size（%1）的倍数建模</translation>
    </message>
    <message>
        <source>a RoPE base in [1, 1e12]</source>
        <translation>[1, 1e12] 内的 RoPE 基数</translation>
    </message>
    <message>
        <source>model.mtp_layers = %1: the config&apos;s num_nextn_predict_layers, multi-token-prediction modules trained with the model; set it to 0 to plan without them</source>
        <translation>model.mtp_layers = %1：取自配置的 num_nextn_predict_layers，即与模型一同训练的多 token 预测（MTP）模块；设为 0 则按不含它们规划</translation>
    </message>
</context>
<context>
    <name>tally::launch</name>
    <message>
        <source>True or False</source>
        <translation>True 或 False</translation>
    </message>
    <message>
        <source>a switch without a value (argparse&apos;s store_true)</source>
        <translation>一个不带值的开关（argparse 的 store_true）</translation>
    </message>
    <message>
        <source>a switch without a value</source>
        <translation>一个不带值的开关</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>一个整数</translation>
    </message>
    <message>
        <source>a finite number</source>
        <translation>一个有限数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>一个数</translation>
    </message>
    <message>
        <source>a value</source>
        <translation>一个值</translation>
    </message>
    <message>
        <source>a setting of %1 that Tally reads or knows to ignore (docs/launch-configs.md lists them); --allow-unknown lists it instead</source>
        <translation>一个 Tally 能读取或知道可以忽略的 %1 设置（docs/launch-configs.md 列出了它们）；用 --allow-unknown 则把它列出而不报错</translation>
    </message>
    <message>
        <source>one value: line %1 gives %2</source>
        <translation>只能有一个值：第 %1 行给出的是 %2</translation>
    </message>
    <message>
        <source>the %1 GPUs the file gives</source>
        <translation>文件给出的 %1 个 GPU</translation>
    </message>
    <message>
        <source>a closing quote for the one opened here</source>
        <translation>与此处左引号配对的右引号</translation>
    </message>
    <message>
        <source>an argument --name [value]; a value belongs to the argument before it</source>
        <translation>一个参数 --name [value]；值属于它前面的参数</translation>
    </message>
    <message>
        <source>an integer below 2^63</source>
        <translation>一个小于 2^63 的整数</translation>
    </message>
    <message>
        <source>a plain name as a key</source>
        <translation>一个普通名称作为键</translation>
    </message>
    <message>
        <source>well-formed TOML</source>
        <translation>格式正确的 TOML</translation>
    </message>
    <message>
        <source>a well-formed JSON object</source>
        <translation>一个格式正确的 JSON 对象</translation>
    </message>
    <message>
        <source>a JSON object</source>
        <translation>一个 JSON 对象</translation>
    </message>
    <message>
        <source>well-formed YAML</source>
        <translation>格式正确的 YAML</translation>
    </message>
    <message>
        <source>a mapping of keys to values</source>
        <translation>一个从键到值的映射</translation>
    </message>
    <message>
        <source>an integer &gt;= %1</source>
        <translation>一个 &gt;= %1 的整数</translation>
    </message>
    <message>
        <source>&quot;%1&quot;, the only setting Tally plans with</source>
        <translation>&quot;%1&quot;，这是 Tally 规划时使用的唯一设置</translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <translation>%1 或 %2</translation>
    </message>
    <message>
        <source>a transformer: the training frameworks build decoder-only transformers from their dimensions (%1 cannot express it)</source>
        <translation>一个 transformer：训练框架按尺寸构建仅解码器的 transformer（%1无法表达）</translation>
    </message>
    <message>
        <source>%1 for this framework: its configuration has no such degree (%2 cannot express it)</source>
        <translation>此框架下为 %1：它的配置没有这种并行度（%2 无法表达）</translation>
    </message>
    <message>
        <source>0 (even stages) for this framework (%1 cannot express it)</source>
        <translation>此框架下为 0（均匀的阶段）（%1无法表达）</translation>
    </message>
    <message>
        <source>0 or 1 for this framework (%1 cannot express it)</source>
        <translation>此框架下为 0 或 1（%1无法表达）</translation>
    </message>
    <message>
        <source>none, selective or full: the frameworks checkpoint per layer, not every ceil(sqrt(L)) layers (%1 cannot express it)</source>
        <translation>none、selective 或 full：框架按层设置检查点，而不是每 ceil(sqrt(L)) 层一个（%1无法表达）</translation>
    </message>
    <message>
        <source>none or full for this framework: it checkpoints whole layers (%1 cannot express it)</source>
        <translation>此框架下为 none 或 full：它以整层为单位设置检查点（%1无法表达）</translation>
    </message>
    <message>
        <source>0 or 1: Megatron-LM&apos;s distributed optimizer (--use-distributed-optimizer) shards optimizer state only, as ZeRO-1 does (%1 cannot express it)</source>
        <translation>0 或 1：Megatron-LM 的分布式优化器（--use-distributed-optimizer）只切分优化器状态，与 ZeRO-1 相同（%1无法表达）</translation>
    </message>
    <message>
        <source>0 (replicated), 2 or 3: FSDP has no sharding of optimizer state alone (%1 cannot express it)</source>
        <translation>0（复制）、2 或 3：FSDP 没有只切分优化器状态的方式（%1无法表达）</translation>
    </message>
    <message>
        <source>none or optimizer for this framework (%1 cannot express it)</source>
        <translation>此框架下为 none 或 optimizer（%1无法表达）</translation>
    </message>
    <message>
        <source>none or optimizer_and_params: FSDP&apos;s CPU offload moves parameters, gradients and the optimizer step together (%1 cannot express it)</source>
        <translation>none 或 optimizer_and_params：FSDP 的 CPU 卸载把参数、梯度和优化器步骤一起移走（%1无法表达）</translation>
    </message>
    <message>
        <source>adamw or sgd (Megatron-LM&apos;s --optimizer adam applies decoupled weight decay, as AdamW does) (%1 cannot express it)</source>
        <translation>adamw 或 sgd（Megatron-LM 的 --optimizer adam 使用解耦的权重衰减，与 AdamW 相同）（%1无法表达）</translation>
    </message>
    <message>
        <source>delayed, current or mxfp8 (Megatron-LM&apos;s --fp8-recipe delayed, tensorwise, mxfp8) (%1 cannot express it)</source>
        <translation>delayed、current 或 mxfp8（Megatron-LM 的 --fp8-recipe delayed、tensorwise、mxfp8）（%1无法表达）</translation>
    </message>
    <message>
        <source>gelu or swiglu (%1 cannot express it)</source>
        <translation>gelu 或 swiglu（%1无法表达）</translation>
    </message>
    <message>
        <source>0 for this framework: Megatron-LM core_v0.12.0&apos;s arguments have no sliding-window attention (%1 cannot express it)</source>
        <translation>此框架下为 0：Megatron-LM core_v0.12.0 的参数中没有滑动窗口注意力（%1无法表达）</translation>
    </message>
    <message>
        <source>0 or %1 (every layer) for this framework: model.config.window_size windows every layer (%2 cannot express it)</source>
        <translation>此框架下为 0 或 %1（每一层）：model.config.window_size 对每一层都加窗口（%2 无法表达）</translation>
    </message>
    <message>
        <source>an integer &gt;= 1</source>
        <translation>一个 &gt;= 1 的整数</translation>
    </message>
    <message>
        <source>false with biases on every linear layer: Tally&apos;s bias kinds are none, qkv only, or all</source>
        <translation>每个线性层都有偏置时为 false：Tally 的偏置种类是 none、只有 qkv 或 all</translation>
    </message>
    <message>
        <source>rope, none or learned_absolute</source>
        <translation>rope、none 或 learned_absolute</translation>
    </message>
    <message>
        <source>a probability in [0, 1)</source>
        <translation>[0, 1) 范围内的概率</translation>
    </message>
    <message>
        <source>an integer &gt;= 0</source>
        <translation>一个 &gt;= 0 的整数</translation>
    </message>
    <message>
        <source>a multiple of the expert width %1: Tally counts shared experts of that width</source>
        <translation>专家宽度 %1 的倍数：Tally 按该宽度计算共享专家</translation>
    </message>
    <message>
        <source>(left, 0): a window over the positions before each query (a causal model looks at none after it), (-1, 0) or None for none</source>
        <translation>(left, 0)：每个查询之前各位置上的窗口（因果模型不看其后的位置），无窗口则为 (-1, 0) 或 None</translation>
    </message>
    <message>
        <source>1 (every layer MoE) or ([0]*k+[1]*m) with k + m = %1 layers: Tally&apos;s MoE keeps its dense layers first</source>
        <translation>1（每层都是 MoE）或 ([0]*k+[1]*m)，其中 k + m = %1 层：Tally 的 MoE 把稠密层放在最前面</translation>
    </message>
    <message>
        <source>-1 (local batch x data-parallel degree) or an integer &gt;= 1</source>
        <translation>-1（本地批次 x 数据并行度）或一个 &gt;= 1 的整数</translation>
    </message>
    <message>
        <source>full or selective</source>
        <translation>full 或 selective</translation>
    </message>
    <message>
        <source>uniform or block</source>
        <translation>uniform 或 block</translation>
    </message>
    <message>
        <source>at least 1: the layers of each model chunk the block method recomputes</source>
        <translation>至少为 1：block 方法在每个模型块中重计算的层数</translation>
    </message>
    <message>
        <source>1 with the uniform method: Tally&apos;s full recomputation keeps every layer&apos;s input (the block method recomputes some layers)</source>
        <translation>uniform 方法下为 1：Tally 的完全重计算保留每一层的输入（block 方法只重计算部分层）</translation>
    </message>
    <message>
        <source>0 for this framework: it recomputes every layer or none (%1 cannot express it)</source>
        <translation>此框架下为 0：它要么重计算每一层，要么都不重计算（%1无法表达）</translation>
    </message>
    <message>
        <source>0, 1, 2 or 3</source>
        <translation>0、1、2 或 3</translation>
    </message>
    <message>
        <source>0 for this framework: it has no setting that offloads a layer&apos;s activations (%1 cannot express it)</source>
        <translation>此框架下为 0：它没有卸载某一层激活值的设置（%1无法表达）</translation>
    </message>
    <message>
        <source>false for this framework&apos;s arguments here: they have no expert-parallel overlap setting (%1 cannot express it)</source>
        <translation>此框架这里的参数下为 false：它们没有专家并行重叠的设置（%1无法表达）</translation>
    </message>
    <message>
        <source>allgather, alltoall, alltoall_seq or flex</source>
        <translation>allgather、alltoall、alltoall_seq 或 flex</translation>
    </message>
    <message>
        <source>alltoall for this framework: it has no node-deduplicating token dispatcher (%1 cannot express it)</source>
        <translation>此框架下为 alltoall：它没有按节点去重的 token 分发器（%1无法表达）</translation>
    </message>
    <message>
        <source>BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH</source>
        <translation>BACKWARD_PRE、BACKWARD_POST 或 NO_PREFETCH</translation>
    </message>
    <message>
        <source>pre for this framework: its sharded mode gathers the next layer&apos;s parameters before the current layer&apos;s gradients, with no setting to wait (%1 cannot express it)</source>
        <translation>此框架下为 pre：它的分片模式在当前层的梯度之前收集下一层的参数，没有等待的设置（%1无法表达）</translation>
    </message>
    <message>
        <source>fused or engine for this framework: it runs Transformer Engine&apos;s or Apex&apos;s FusedAdam (%1 cannot express it)</source>
        <translation>此框架下为 fused 或 engine：它运行 Transformer Engine 或 Apex 的 FusedAdam（%1无法表达）</translation>
    </message>
    <message>
        <source>false for this framework: it has no setting for Transformer Engine&apos;s tensor-parallel overlap (%1 cannot express it)</source>
        <translation>此框架下为 false：它没有 Transformer Engine 张量并行重叠的设置（%1无法表达）</translation>
    </message>
    <message>
        <source>cpu or none (nvme is not planned)</source>
        <translation>cpu 或 none（不规划 nvme）</translation>
    </message>
    <message>
        <source>none unless offload_optimizer.device is cpu too</source>
        <translation>除非 offload_optimizer.device 也是 cpu，否则为 none</translation>
    </message>
    <message>
        <source>false when bf16 is on: one precision per run</source>
        <translation>开启 bf16 时为 false：每次运行只有一种精度</translation>
    </message>
    <message>
        <source>%1, %2 or %3</source>
        <translation>%1、%2 或 %3</translation>
    </message>
    <message>
        <source>hybrid or e4m3</source>
        <translation>hybrid 或 e4m3</translation>
    </message>
    <message>
        <source>fp8 with bf16 or fp16 parameters (--bf16 or --fp16)</source>
        <translation>使用 bf16 或 fp16 参数的 fp8（--bf16 或 --fp16）</translation>
    </message>
    <message>
        <source>flash, fused, unfused, local or auto</source>
        <translation>flash、fused、unfused、local 或 auto</translation>
    </message>
    <message>
        <source>a flavour of llama3 Tally has dimensions for (8B, 70B, 405B); model %1 has none here, give the model&apos;s config.json instead</source>
        <translation>一个 Tally 有其尺寸的 llama3 规格（8B、70B、405B）；模型 %1 在此没有，请改为给出模型的 config.json</translation>
    </message>
    <message>
        <source>a torchtitan model flavour: torchtitan names its model by flavour, and this model&apos;s dimensions match none of llama3 8B, 70B, 405B (%1 cannot express it)</source>
        <translation>一个 torchtitan 模型规格：torchtitan 按规格命名模型，而此模型的尺寸与 llama3 8B、70B、405B 都不匹配（%1无法表达）</translation>
    </message>
    <message>
        <source>-1 (every remaining rank) or an integer &gt;= 1</source>
        <translation>-1（其余所有 rank）或一个 &gt;= 1 的整数</translation>
    </message>
    <message>
        <source>default, always or never</source>
        <translation>default、always 或 never</translation>
    </message>
    <message>
        <source>given with train_batch_size: Tally reads the GPU count from train_batch_size / (train_micro_batch_size_per_gpu x this)</source>
        <translation>与 train_batch_size 一起给出：Tally 由 train_batch_size / (train_micro_batch_size_per_gpu x 此值) 得出 GPU 数</translation>
    </message>
    <message>
        <source>a divisor of train_batch_size / train_micro_batch_size_per_gpu (%1 / %2): their quotient is the GPU count</source>
        <translation>train_batch_size / train_micro_batch_size_per_gpu（%1 / %2）的一个因数：它们的商是 GPU 数</translation>
    </message>
    <message>
        <source>FSDP or MULTI_GPU (a DeepSpeed run imports from its JSON config)</source>
        <translation>FSDP 或 MULTI_GPU（DeepSpeed 运行请从其 JSON 配置导入）</translation>
    </message>
    <message>
        <source>FULL_SHARD, SHARD_GRAD_OP or NO_SHARD (HYBRID_SHARD shards within a node only, which Tally does not plan)</source>
        <translation>FULL_SHARD、SHARD_GRAD_OP 或 NO_SHARD（HYBRID_SHARD 只在节点内切分，Tally 不规划这种方式）</translation>
    </message>
    <message>
        <source>required with learned_absolute positions (line %1)</source>
        <translation>使用 learned_absolute 位置编码时必须给出（第 %1 行）</translation>
    </message>
    <message>
        <source>required with learned_absolute positions (Megatron-LM&apos;s default position type)</source>
        <translation>使用 learned_absolute 位置编码时必须给出（Megatron-LM 的默认位置编码类型）</translation>
    </message>
    <message>
        <source>a multiple of %1 (replicate x tp x pp x cp)</source>
        <translation>%1 的倍数（replicate x tp x pp x cp）</translation>
    </message>
    <message>
        <source>bf16: NeMo 2&apos;s recipes train with the bf16-mixed plugin (%1 cannot express it)</source>
        <translation>bf16：NeMo 2 的配方使用 bf16-mixed 插件训练（%1无法表达）</translation>
    </message>
    <message>
        <source>none: a NeMo recipe&apos;s optimizer offload is not a field override (%1 cannot express it)</source>
        <translation>none：NeMo 配方的优化器卸载不是字段覆盖（%1无法表达）</translation>
    </message>
    <message>
        <source>op (per-operator selective recomputation)</source>
        <translation>op（按算子的选择性重计算）</translation>
    </message>
    <message>
        <source>adamw, adam or sgd (%1 cannot express it)</source>
        <translation>adamw、adam 或 sgd（%1无法表达）</translation>
    </message>
    <message>
        <source>2 or 3 with offload or recomputation: accelerate sets them in fsdp_config (%1 cannot express it)</source>
        <translation>使用卸载或重计算时为 2 或 3：accelerate 在 fsdp_config 中设置它们（%1无法表达）</translation>
    </message>
    <message>
        <source>%1, %2 or %3 (memory_budget has no layer rule Tally plans)</source>
        <translation>%1、%2 或 %3（memory_budget 没有 Tally 能规划的按层规则）</translation>
    </message>
    <message>
        <source>p2p (the ring) or all_gather: Tally times context parallelism as the ring, or as the all-gather that sliding-window attention needs; the all-to-all exchanges are not modelled</source>
        <translation>p2p（环形）或 all_gather：Tally 将上下文并行按环形交换计时，或按滑动窗口注意力所需的 all-gather 计时；all-to-all 交换未建模</translation>
    </message>
    <message>
        <source>all_gather with a sliding window: Transformer Engine runs no ring (p2p) exchange for windowed attention</source>
        <translation>有滑动窗口时须为 all_gather：Transformer Engine 不对窗口注意力运行环形（p2p）交换</translation>
    </message>
    <message>
        <source>p2p with full attention: Tally times its context parallelism as the ring, not as an all-gather</source>
        <translation>全注意力时须为 p2p：Tally 将其上下文并行按环形交换计时，而非 all-gather</translation>
    </message>
    <message>
        <source>kept from the current plan</source>
        <translation>沿用当前计划</translation>
    </message>
    <message>
        <source>%1 (line %2)</source>
        <translation>%1（第 %2 行）</translation>
    </message>
    <message>
        <source>cluster.gpus = %1: the file leaves the world size to the launcher; kept from the current plan</source>
        <translation>cluster.gpus = %1：文件把总进程数留给启动器决定；沿用当前计划</translation>
    </message>
    <message>
        <source>cluster.gpus = %1: the file leaves the world size to the launcher; assumed one data-parallel rank (tp x pp x cp)</source>
        <translation>cluster.gpus = %1：文件把总进程数留给启动器决定；假设只有一个数据并行 rank（tp x pp x cp）</translation>
    </message>
    <message>
        <source>data.tokens = %1: not in the file; kept from the current plan</source>
        <translation>data.tokens = %1：文件中没有；沿用当前计划</translation>
    </message>
    <message>
        <source>data.tokens = %1: not in the file; 20 tokens per parameter (Hoffmann et al. 2022, Chinchilla)</source>
        <translation>data.tokens = %1：文件中没有；按每个参数 20 个 token 计（Hoffmann et al. 2022，Chinchilla）</translation>
    </message>
    <message>
        <source>model: %1</source>
        <translation>model：%1</translation>
    </message>
    <message>
        <source>from the config.json given beside the file</source>
        <translation>来自与文件一同给出的 config.json</translation>
    </message>
    <message>
        <source>cluster.gpus = %1: data_parallel_shard_degree -1 leaves the world size to the launcher; assumed one node of %1 GPUs</source>
        <translation>cluster.gpus = %1：data_parallel_shard_degree -1 把总进程数留给启动器决定；假设为一个 %1 GPU 的节点</translation>
    </message>
    <message>
        <source>a number in [0.001, 1] (an assumed MFU) or predicted</source>
        <translation>[0.001, 1] 范围内的数（假设的 MFU）或 predicted</translation>
    </message>
    <message>
        <source>a number &gt;= 0 or none</source>
        <translation>一个 &gt;= 0 的数或 none</translation>
    </message>
    <message>
        <source># tally: FIELD = VALUE, one of Tally&apos;s own settings</source>
        <translation># tally: 字段 = 值，Tally 自己的设置之一</translation>
    </message>
    <message>
        <source>one of Tally&apos;s own settings: %1</source>
        <translation>Tally 自己的设置之一：%1</translation>
    </message>
    <message>
        <source>the model&apos;s Hugging Face config.json beside the file (--hf-config): %1 does not describe the model</source>
        <translation>与文件一起给出模型的 Hugging Face config.json（--hf-config）：%1 不描述模型</translation>
    </message>
    <message>
        <source>%1 = %2: not in the file; kept from the current plan</source>
        <translation>%1 = %2：文件中没有；沿用当前计划的值</translation>
    </message>
    <message>
        <source>%1 = %2: not in the file; Tally&apos;s default</source>
        <translation>%1 = %2：文件中没有；使用 Tally 的默认值</translation>
    </message>
    <message>
        <source>%1 = %2: %3 has no setting for it; Tally&apos;s default</source>
        <translation>%1 = %2：%3 没有对应的设置；使用 Tally 的默认值</translation>
    </message>
    <message>
        <source>torchtitan&apos;s tensor parallelism always shards the norms&apos; activations along the sequence (sequence parallelism); this plan has training.sequence_parallel false, so the run keeps fewer activations per GPU than the plan counts, and an import of this file reads it as true</source>
        <translation>torchtitan 的张量并行总是沿序列切分归一化层的激活（序列并行）；此计划的 training.sequence_parallel 为 false，因此实际运行每个 GPU 保存的激活比计划计算的少，导入此文件时会读作 true</translation>
    </message>
    <message>
        <source>not given beside --attention-backend unfused or local, which run no FlashAttention (Megatron-Core follows --attention-backend): give one of the two</source>
        <translation>不能与 --attention-backend unfused 或 local 同时给出，它们不运行 FlashAttention（Megatron-Core 以 --attention-backend 为准）：请只给出其中之一</translation>
    </message>
    <message>
        <source>engine, flash2, flash3, cudnn, triton or flash1</source>
        <translation>engine、flash2、flash3、cudnn、triton 或 flash1</translation>
    </message>
    <message>
        <source>this plan has training.flash_attention false, but %1 runs a fused attention kernel and its file has no setting that keeps the scores: the run keeps fewer activations per GPU than the plan counts, and an import of this file reads true</source>
        <translation>此计划的 training.flash_attention 为 false，但 %1运行融合注意力 kernel，其文件没有保留注意力分数的设置：实际运行每个 GPU 保留的激活比计划算的少，导入此文件会读成 true</translation>
    </message>
    <message>
        <source>this plan has training.dp_overlap false, but %1 overlaps the gradient reduction with the backward and its file has no setting to stop it: the run&apos;s step is shorter than the plan&apos;s, and an import of this file reads true</source>
        <translation>此计划的 training.dp_overlap 为 false，但 %1 会让梯度归约与反向传播重叠，其文件没有关闭它的设置：实际运行的单步比计划的短，导入此文件会读成 true</translation>
    </message>
    <message>
        <source>this plan has training.dropout true; dropout is the model code&apos;s, not a setting of %1&apos;s file: turn it on there (an import of this file reads false)</source>
        <translation>此计划的 training.dropout 为 true；dropout 属于模型代码，不是 %1文件的设置：请在模型代码中开启（导入此文件会读成 false）</translation>
    </message>
    <message>
        <source>this plan&apos;s optimizer is %2 (implementation %3); %1&apos;s file names none, the training script makes it: make it so there (an import of this file reads adamw, engine)</source>
        <translation>此计划的优化器是 %2（实现 %3）；%1的文件不指定优化器，由训练脚本创建：请在脚本中照此设置（导入此文件会读成 adamw、engine）</translation>
    </message>
    <message>
        <source>no method with selective recomputation: Megatron-LM stops on one (&quot;recompute method is not yet supported for selective recomputing granularity&quot;)</source>
        <translation>选择性重计算时不能给出方法：Megatron-LM 会因此停止（&quot;recompute method is not yet supported for selective recomputing granularity&quot;）</translation>
    </message>
    <message>
        <source>no layer count with selective recomputation: Megatron-Core stops on one (&quot;recompute_num_layers must be None&quot;)</source>
        <translation>选择性重计算时不能给出层数：Megatron-Core 会因此停止（&quot;recompute_num_layers must be None&quot;）</translation>
    </message>
    <message>
        <source>a number in (0, 1e30]</source>
        <translation>(0, 1e30] 范围内的数</translation>
    </message>
    <message>
        <source>data.tokens = %1: from %2 = %3 (line %4); the tally: line&apos;s %5 (line %6) no longer rounds to it, so the file was edited after the export and its count is used</source>
        <translation>data.tokens = %1：取自 %2 = %3（第 %4 行）；tally: 行的 %5（第 %6 行）取整后已不等于它，说明文件在导出后被改过，故采用文件中的计数</translation>
    </message>
    <message>
        <source>%1 as the model&apos;s config.json gives (%2 = %3); or no config.json</source>
        <translation>%1，与模型的 config.json 一致（%2 = %3）；或不给 config.json</translation>
    </message>
    <message>
        <source>required: it gives %1, unless the model&apos;s config.json is given beside the file (--hf-config)</source>
        <translation>必须给出：它给出 %1，除非在文件旁给出模型的 config.json（--hf-config）</translation>
    </message>
    <message>
        <source>%1 = %2: the model&apos;s %3 does not run in %4</source>
        <translation>%1 = %2：模型的 %3 无法在 %4 中运行</translation>
    </message>
    <message>
        <source>%1 = %2: the current plan&apos;s %3 does not run in %4</source>
        <translation>%1 = %2：当前计划的 %3 无法在 %4 中运行</translation>
    </message>
    <message>
        <source>%1 = %2: %3 does not run in %4</source>
        <translation>%1 = %2：%3 无法在 %4 中运行</translation>
    </message>
    <message>
        <source>its default</source>
        <translation>其默认值</translation>
    </message>
    <message>
        <source>this plan is timed as training.engine %2; %1 runs as %3, so the run&apos;s step differs from the plan&apos;s, and an import of this file is timed as %3</source>
        <translation>此计划按 training.engine %2 计时；%1以 %3 运行，因此实际单步时间与计划不同，导入此文件后按 %3 计时</translation>
    </message>
    <message>
        <source>a whole number &gt;= %1</source>
        <translation>一个 &gt;= %1 的整数</translation>
    </message>
    <message>
        <source>the model is not carried: %1 has no setting for it (this plan&apos;s: %2, %3 layers, hidden %4, %5 heads, vocabulary %6); tally import takes it from the model&apos;s config.json (--hf-config)</source>
        <translation>模型没有写入：%1没有对应的设置（本计划的模型：%2，%3 层，隐藏维度 %4，%5 个头，词表 %6）；tally import 从模型的 config.json 读取它（--hf-config）</translation>
    </message>
    <message>
        <source>this plan has training.optimizer_impl engine; %1&apos;s file names the kernel, written as %2 (%3 = %4), which an import of this file reads</source>
        <translation>本计划的 training.optimizer_impl 为 engine；%1的文件要写明具体 kernel，写为 %2（%3 = %4），导入这个文件时读取的是它</translation>
    </message>
    <message>
        <source>a whole number &gt;= 1 or none</source>
        <translation>一个 &gt;= 1 的整数，或 none</translation>
    </message>
    <message>
        <source>given only with --bf16</source>
        <translation>只能与 --bf16 一起给出</translation>
    </message>
    <message>
        <source>adamw or adam for this framework: its file names no other optimizer (%1 cannot express it)</source>
        <translation>此框架只能用 adamw 或 adam：其文件不能指定其他优化器（%1无法表达）</translation>
    </message>
    <message>
        <source>AdamW or Adam</source>
        <translation>AdamW 或 Adam</translation>
    </message>
    <message>
        <source>no float8 or MX converter: Tally times fp8 training as Transformer Engine&apos;s recipes, not torchao&apos;s Float8Linear or MXLinear; without the converter the run is planned in bf16</source>
        <translation>不能有 float8 或 MX 转换器：Tally 按 Transformer Engine 的方案估算 fp8 训练，而不是 torchao 的 Float8Linear 或 MXLinear；去掉该转换器则按 bf16 规划</translation>
    </message>
    <message>
        <source>cluster.gpu = %1: no built-in GPU has this id; the plan needs a workspace profile of it where it is planned (tally plan --db, the window&apos;s Profiles panel)</source>
        <translation>cluster.gpu = %1：没有内置 GPU 使用这个 id；在哪里规划此计划，那里的工作区就需要有这个 id 的硬件配置（tally plan --db，或窗口的“硬件配置”面板）</translation>
    </message>
    <message>
        <source>Megatron-LM arguments</source>
        <translation>Megatron-LM 参数</translation>
    </message>
    <message>
        <source>NeMo 2 recipe overrides</source>
        <translation>NeMo 2 配方覆盖项</translation>
    </message>
    <message>
        <source>torchtitan TOML</source>
        <translation>torchtitan TOML 配置</translation>
    </message>
    <message>
        <source>DeepSpeed JSON</source>
        <translation>DeepSpeed JSON 配置</translation>
    </message>
    <message>
        <source>accelerate FSDP YAML</source>
        <translation>accelerate FSDP YAML 配置</translation>
    </message>
    <message>
        <source>vLLM serve command</source>
        <translation>vLLM serve 命令</translation>
    </message>
    <message>
        <source>SGLang launch command</source>
        <translation>SGLang 启动命令</translation>
    </message>
    <message>
        <source>a checkpoint of the model quantized to %1 (AWQ or GPTQ for int4 and int8), a Hugging Face id or a local path: the preset&apos;s checkpoint is 16-bit</source>
        <translation>量化为 %1 的模型检查点（int4 和 int8 用 AWQ 或 GPTQ），Hugging Face id 或本地路径：预设的检查点是 16 位的</translation>
    </message>
    <message>
        <source>bf16, fp16, fp8_e4m3 or fp8_e5m2: the KV cache dtypes %1 takes (--kv-cache-dtype)</source>
        <translation>bf16、fp16、fp8_e4m3 或 fp8_e5m2：%1 接受的 KV 缓存类型（--kv-cache-dtype）</translation>
    </message>
    <message>
        <source>1 or inference.tp (%1) for vLLM: its expert parallelism (--enable-expert-parallel) spans the tensor-parallel group</source>
        <translation>vLLM 只能是 1 或 inference.tp（%1）：它的专家并行（--enable-expert-parallel）覆盖整个张量并行组</translation>
    </message>
    <message>
        <source>absent or [&quot;core_attn&quot;] for this framework (%1 as Tally writes it recomputes the attention core only)</source>
        <translation>对此框架须不设置或为 [&quot;core_attn&quot;]（Tally 写出的 %1 配置只重计算注意力核心）</translation>
    </message>
    <message>
        <source>first and last stage layers of at least 1 each, set in the plan (%1 cannot leave a stage without transformer layers)</source>
        <translation>在计划中设定首、末阶段各至少 1 层（%1不能让一个阶段没有 transformer 层）</translation>
    </message>
    <message>
        <source>first and last stage layers that leave each of the other %1 stages the same number of layers: %2 spreads the %3 layers between the first and the last stage evenly or not at all (set training.first_stage_layers and last_stage_layers, or another pp)</source>
        <translation>首、末阶段的层数须使其余 %1 个阶段层数相同：%2 只能把首末阶段之间的 %3 层平均分配，否则无法分配（请设置 training.first_stage_layers 和 last_stage_layers，或换一个 pp）</translation>
    </message>
    <message>
        <source>this plan does not fit the GPU&apos;s memory: %1 GB a GPU of %2 GB; the run this file starts would run out of memory</source>
        <translation>此计划超出 GPU 内存：每块 GPU 需要 %1 GB，而内存为 %2 GB；用此文件启动的训练会耗尽内存</translation>
    </message>
    <message>
        <source>with interleaving (v %1), stage layers that v divides, or the spread of layers + 1 or + 2 over pp x v virtual stages less one at an end (%2 cannot express other end stages)</source>
        <translation>交错流水线（v %1）下，各段层数须能被 v 整除，或为 层数 + 1 或 + 2 均分到 pp x v 个虚拟段、首段或末段少一层的分法（%2 无法表达其他首末段层数）</translation>
    </message>
    <message>
        <source>false: Tally plans the offloaded layers&apos; activations, not their weights</source>
        <translation>false：Tally 规划的是卸载层的激活，而非其权重</translation>
    </message>
    <message>
        <source>training.moe_dispatcher = alltoall: the %1 dispatcher is timed as the all-to-all, each token copy sent to its expert&apos;s rank</source>
        <translation>training.moe_dispatcher = alltoall：%1 分发器按 all-to-all 计时，每个 token 副本发往其专家所在的 rank</translation>
    </message>
    <message>
        <source>false beside num_layers_in_first/last_pipeline_stage (Megatron-Core takes one of the two)</source>
        <translation>与 num_layers_in_first/last_pipeline_stage 同时给出时须为 false（Megatron-Core 只接受两者之一）</translation>
    </message>
    <message>
        <source>true only where pp x v (%1) divides the layers with the embedding and the loss counted (%2)</source>
        <translation>仅当 pp x v（%1）能整除计入嵌入层和损失后的层数（%2）时才可为 true</translation>
    </message>
    <message>
        <source>core_attn, layernorm, mla_up_proj, moe_act or mlp (the recompute modules Tally times)</source>
        <translation>core_attn、layernorm、mla_up_proj、moe_act 或 mlp（Tally 计时的重计算模块）</translation>
    </message>
    <message>
        <source>training.recompute_modules = none: %1 are given without selective recompute granularity, which Megatron-Core then ignores</source>
        <translation>training.recompute_modules = none：给出了 %1，但未设置 selective 重计算粒度，Megatron-Core 会忽略它们</translation>
    </message>
    <message>
        <source>full recomputation: the activation_checkpointing section configures DeepSpeed&apos;s checkpoint(); the training script must checkpoint each layer with it (a Hugging Face model: model.gradient_checkpointing_enable()), or the run keeps every activation the plan recomputes</source>
        <translation>完全重计算：activation_checkpointing 段只配置 DeepSpeed 的 checkpoint()；训练脚本必须用它对每一层做检查点（Hugging Face 模型：model.gradient_checkpointing_enable()），否则训练会保留计划中重计算的所有激活</translation>
    </message>
    <message>
        <source>%1 GPUs are not whole hosts of %2: the file starts them as one node of %1, which no host of %2 GPUs runs; plan a multiple of %2</source>
        <translation>%1 块 GPU 不是每台 %2 块的整数台主机：文件把它们作为一个 %1 块 GPU 的节点启动，而每台主机只有 %2 块 GPU；请规划 %2 的整数倍</translation>
    </message>
    <message>
        <source>training.moe_dispatcher = alltoall: the file names no dispatcher, so Megatron-Core runs its default, allgather, which is timed as the all-to-all</source>
        <translation>training.moe_dispatcher = alltoall：文件未指定分发器，Megatron-Core 会使用默认的 allgather，此处按 all-to-all 计时</translation>
    </message>
    <message>
        <source>model.config.cpu_offloading_weights = false: the file does not say, and Megatron-Core releases differ (True in earlier ones offloads the weights too, which Tally does not plan)</source>
        <translation>model.config.cpu_offloading_weights = false：文件未指定，而 Megatron-Core 各版本默认值不同（早期版本为 True，会连权重一起卸载，Tally 不规划这种情况）</translation>
    </message>
    <message>
        <source>2 or 3 with context parallelism (cp %1): its FSDP shards over the data-parallel and context-parallel ranks whenever cp &gt; 1 (%2 cannot express it)</source>
        <translation>使用上下文并行（cp %1）时为 2 或 3：只要 cp &gt; 1，它的 FSDP 就在数据并行与上下文并行的 rank 上切分（%2 无法表达）</translation>
    </message>
    <message>
        <source>1 with context parallelism: torchtitan then shards parameters, gradients and optimizer state over each replica&apos;s shard x cp ranks (hybrid sharding), which Tally does not plan</source>
        <translation>使用上下文并行时为 1：否则 torchtitan 在每个副本的 shard × cp 个 rank 上切分参数、梯度和优化器状态（混合切分），Tally 不规划这种情况</translation>
    </message>
    <message>
        <source>a divisor of the layers a pipeline stage holds, the embedding and the loss counted where the accounting flags say so ((%1 + %2) / %3)</source>
        <translation>一个流水线阶段所含层数的约数，在记账标志要求时把嵌入层和损失层也计为层（(%1 + %2) / %3）</translation>
    </message>
    <message>
        <source>a whole number: the framework&apos;s rotary base is an integer (%1 cannot express it)</source>
        <translation>整数：该框架的旋转位置编码基数是整数（%1无法表达）</translation>
    </message>
    <message>
        <source>500000 or unstated: torchtitan&apos;s llama3 flavours fix the RoPE base (%1 cannot express it)</source>
        <translation>500000 或不指定：torchtitan 的 llama3 规格固定了 RoPE 基数（%1无法表达）</translation>
    </message>
    <message>
        <source>this plan leaves model.rope_theta unstated; torchtitan&apos;s llama3 flavours run a RoPE base of 500000, which an import of this file reads</source>
        <translation>这个规划没有指定 model.rope_theta；torchtitan 的 llama3 规格使用 500000 的 RoPE 基数，导入此文件时会读成这个值</translation>
    </message>
    <message>
        <source>model.mla = with its latents&apos; norms: the file runs multi-latent attention without qk_layernorm, which in Megatron-Core also leaves out the norms of the query and key-value latents; Tally counts them, as DeepSeek-V2 and V3 have them</source>
        <translation>model.mla = 含其潜变量的归一化：该文件运行多头潜在注意力却未设 qk_layernorm，在 Megatron-Core 中这也会去掉查询与键值潜变量的归一化；Tally 按 DeepSeek-V2 和 V3 的结构计入它们</translation>
    </message>
    <message>
        <source>true for an MoE model at tp &gt; 1: Megatron-Core stops training an MoE layer under tensor parallelism without sequence parallelism (%1 cannot express it)</source>
        <translation>MoE 模型在 tp &gt; 1 时须为 true：Megatron-Core 在张量并行而未开序列并行时会中止 MoE 层的训练（%1无法表达）</translation>
    </message>
    <message>
        <source>model.ffn_hidden = %1: the file gives no --ffn-hidden-size, so Megatron-LM derives it from the hidden size (4h, or int(4h x 2/3 / 64) x 64 with --swiglu)</source>
        <translation>model.ffn_hidden = %1：文件未给出 --ffn-hidden-size，Megatron-LM 由隐藏层大小推出（4h；使用 --swiglu 时为 int(4h x 2/3 / 64) x 64）</translation>
    </message>
    <message>
        <source>the model&apos;s checkpoint, a Hugging Face id or a local path: the plan&apos;s model is no shipped preset&apos;s, and its name is no Hugging Face id, so Tally cannot name its weights</source>
        <translation>模型的检查点：Hugging Face ID 或本地路径；计划的模型不是内置预设，其名称也不是 Hugging Face ID，因此 Tally 无法指明其权重</translation>
    </message>
    <message>
        <source>full with --recompute-method uniform or block (and --recompute-num-layers): Megatron-Core refuses full recomputation without a method</source>
        <translation>full 须配合 --recompute-method uniform 或 block（以及 --recompute-num-layers）：Megatron-Core 拒绝没有方法的完全重计算</translation>
    </message>
    <message>
        <source>%1 (read as %2)</source>
        <translation>%1（读作 %2）</translation>
    </message>
    <message>
        <source>%1 (line %2, read as %3)</source>
        <translation>%1（第 %2 行，读作 %3）</translation>
    </message>
    <message>
        <source>%1 (lines %2, read as %3)</source>
        <translation>%1（第 %2 行，读作 %3）</translation>
    </message>
    <message>
        <source>three whole numbers: the start batch and the increment (1 or more) and the samples the ramp takes (0 or more)</source>
        <translation>三个整数：起始批次与增量（1 或以上），以及爬升所占的样本数（0 或以上）</translation>
    </message>
    <message>
        <source>a start batch up to --global-batch-size (%1) that grows to it by whole increments, as Megatron-LM requires</source>
        <translation>不超过 --global-batch-size（%1）的起始批次，且按整数个增量增长到它，这是 Megatron-LM 的要求</translation>
    </message>
    <message>
        <source>data.global_batch = %1 from the first step: the file ramps the batch from %2 by %3 over its first %4 samples (rampup-batch-size); the plan times every step at the full batch, so the ramp&apos;s steps, slower a token, are not counted</source>
        <translation>data.global_batch = %1，从第一步起：文件在前 %4 个样本内把批次从 %2 起每次增加 %3（rampup-batch-size）；计划按完整批次计每一步的时间，因此爬升阶段那些每个 token 更慢的步骤未计入</translation>
    </message>
    <message>
        <source>%1 (the weights&apos; dtype), fp8_e4m3 or fp8_e5m2: %2 keeps a 16-bit KV cache in the model&apos;s dtype (--kv-cache-dtype auto)</source>
        <translation>%1（权重的数据类型）、fp8_e4m3 或 fp8_e5m2：%2 的 16 位 KV 缓存使用模型的数据类型（--kv-cache-dtype auto）</translation>
    </message>
    <message>
        <source>at least prompt + output (%1 tokens, --max-model-len) with chunked prefill off: vLLM refuses a smaller --max-num-batched-tokens</source>
        <translation>关闭分块预填充时至少为 prompt + 输出（%1 个 token，--max-model-len）：vLLM 拒绝更小的 --max-num-batched-tokens</translation>
    </message>
    <message>
        <source>at least the %1 sequences a step runs (--max-num-seqs): vLLM refuses a smaller --max-num-batched-tokens</source>
        <translation>至少为每步运行的 %1 个序列（--max-num-seqs）：vLLM 拒绝更小的 --max-num-batched-tokens</translation>
    </message>
    <message>
        <source>TensorRT-LLM trtllm-serve command</source>
        <translation>TensorRT-LLM trtllm-serve 命令</translation>
    </message>
    <message>
        <source>bf16, fp16 or fp8_e4m3 for TensorRT-LLM: its KV cache is the model&apos;s dtype or fp8 (e4m3)</source>
        <translation>TensorRT-LLM 需为 bf16、fp16 或 fp8_e4m3：它的 KV 缓存使用模型的数据类型或 fp8（e4m3）</translation>
    </message>
    <message>
        <source>a divisor of inference.tp (%1) for TensorRT-LLM: its expert parallelism (--ep_size) splits the tensor-parallel group</source>
        <translation>TensorRT-LLM 需为 inference.tp（%1）的约数：它的专家并行（--ep_size）切分张量并行组</translation>
    </message>
    <message>
        <source>a checkpoint of the model in %1, a Hugging Face id or a local path: the preset&apos;s checkpoint holds its weights in %2</source>
        <translation>该模型 %1 精度的检查点（Hugging Face id 或本地路径）：预设的检查点以 %2 保存权重</translation>
    </message>
    <message>
        <source>an Ampere or later GPU for TensorRT-LLM, which does not run %1</source>
        <translation>TensorRT-LLM 需要 Ampere 或更新的 GPU，它不支持 %1</translation>
    </message>
    <message>
        <source>a divisor of num-layers (%1), or the end stages&apos; layers given (--decoder-first/last-pipeline-num-layers) or the embedding and the loss counted (--account-for-embedding/loss-in-pipeline-split): Megatron-LM refuses layers that pp does not divide</source>
        <translation>num-layers（%1）的约数，或给出首末阶段的层数（--decoder-first/last-pipeline-num-layers），或把嵌入层和损失计入（--account-for-embedding/loss-in-pipeline-split）：层数不能被 pp 整除时 Megatron-LM 会拒绝</translation>
    </message>
    <message>
        <source>a launch configuration holds one precision: bf16 or fp16 mixed (grads in the same type or in fp32, fp32 master weights and optimizer state, compute in it, in fp8, or in nvfp4 over bf16) or plain fp32 (no master copy) (%1 cannot express it)</source>
        <translation>一个启动配置只有一种精度：bf16 或 fp16 混合精度（梯度使用同一类型或 fp32，fp32 主权重和优化器状态，以该类型、fp8 或基于 bf16 的 nvfp4 计算），或纯 fp32（无主副本）（%1无法表达）</translation>
    </message>
    <message>
        <source>a launch configuration holds one precision: bf16 or fp16 mixed (grads in the same type, fp32 master weights and optimizer state, compute in it, in fp8, or in nvfp4 over bf16) or plain fp32 (no master copy) (%1 cannot express it)</source>
        <translation>一个启动配置只有一种精度：bf16 或 fp16 混合精度（梯度使用同一类型，fp32 主权重和优化器状态，以该类型、fp8 或基于 bf16 的 nvfp4 计算），或纯 fp32（无主副本）（%1无法表达）</translation>
    </message>
    <message>
        <source>bf16, fp16 or fp32 for this framework: its fp8 and fp4 recipes are not the ones Tally plans (Transformer Engine&apos;s) (%1 cannot express it)</source>
        <translation>此框架下为 bf16、fp16 或 fp32：它的 fp8 和 fp4 方案不是 Tally 规划的方案（Transformer Engine 的）（%1无法表达）</translation>
    </message>
    <message>
        <source>bf16, fp16 or fp8 for this framework: its precision plugin has no NVFP4 recipe (%1 cannot express it; Megatron-LM&apos;s --fp4-format does)</source>
        <translation>此框架下为 bf16、fp16 或 fp8：它的精度插件没有 NVFP4 方案（%1无法表达；Megatron-LM 的 --fp4-format 可以）</translation>
    </message>
    <message>
        <source>e2m1</source>
        <translation>e2m1</translation>
    </message>
    <message>
        <source>fp4 with bf16 parameters (--bf16)</source>
        <translation>使用 bf16 参数的 fp4（--bf16）</translation>
    </message>
    <message>
        <source>fp4 or fp8, not both (Megatron-LM refuses --fp4-format beside --fp8-format)</source>
        <translation>fp4 或 fp8，不能同时使用（Megatron-LM 拒绝 --fp4-format 与 --fp8-format 并用）</translation>
    </message>
    <message>
        <source>nvfp4</source>
        <translation>nvfp4</translation>
    </message>
    <message>
        <source>0 for this framework: it has no multi-token-prediction modules (%1 cannot express it)</source>
        <translation>此框架须为 0：它没有多 token 预测（MTP）模块（%1无法表达）</translation>
    </message>
    <message>
        <source>--fp4-format and --fp4-recipe need Megatron-LM core_v0.15.0 or later with Transformer Engine 2.7 or later (the rest of this file also runs on core_v0.12.0)</source>
        <translation>--fp4-format 和 --fp4-recipe 需要 Megatron-LM core_v0.15.0 或更新版本，以及 Transformer Engine 2.7 或更新版本（本文件其余部分也可在 core_v0.12.0 上运行）</translation>
    </message>
    <message>
        <source>a training run&apos;s configuration, not a model&apos;s Hugging Face config.json: give %1 beside a DeepSpeed or accelerate file with --hf-config, as &quot;hf_config&quot; in a plan spec, or with the window&apos;s Import config.json…</source>
        <translation>训练运行的配置，而不是模型的 Hugging Face config.json：请用 --hf-config 把 %1 与 DeepSpeed 或 accelerate 文件一起给出，或在计划文件中写作 &quot;hf_config&quot;，或用窗口的“导入 config.json…”</translation>
    </message>
    <message>
        <source>a training run&apos;s configuration (megatron, nemo, torchtitan, deepspeed or accelerate): a serving engine&apos;s command is read as a serving plan (tally import FILE, or --from vllm, sglang or tensorrt_llm)</source>
        <translation>训练运行的配置（megatron、nemo、torchtitan、deepspeed 或 accelerate）：推理服务引擎的命令会作为推理服务计划读入（tally import FILE，或 --from vllm、sglang 或 tensorrt_llm）</translation>
    </message>
    <message>
        <source>a here-document closed by a line %1</source>
        <translation>以一行 %1 结束的 here-document</translation>
    </message>
    <message>
        <source>a whole number of at least %1</source>
        <translation>不小于 %1 的整数</translation>
    </message>
    <message>
        <source>a share of the GPU&apos;s memory in (0, 1]</source>
        <translation>GPU 内存的份额，取值 (0, 1]</translation>
    </message>
    <message>
        <source>auto, fp8, fp8_e4m3 or fp8_e5m2</source>
        <translation>auto、fp8、fp8_e4m3 或 fp8_e5m2</translation>
    </message>
    <message>
        <source>auto, bfloat16 or float16: Tally serves 16-bit or quantized weights</source>
        <translation>auto、bfloat16 或 float16：Tally 规划 16 位或量化的权重</translation>
    </message>
    <message>
        <source>vllm (vllm serve MODEL ...), sglang (python -m sglang.launch_server ...) or tensorrt_llm (trtllm-serve MODEL ...)</source>
        <translation>vllm（vllm serve MODEL ...）、sglang（python -m sglang.launch_server ...）或 tensorrt_llm（trtllm-serve MODEL ...）</translation>
    </message>
    <message>
        <source>a file that runs %1</source>
        <translation>运行%1的文件</translation>
    </message>
    <message>
        <source>an option --name [value]; a value belongs to the option before it</source>
        <translation>选项 --name [value]；值属于它前面的选项</translation>
    </message>
    <message>
        <source>a value after the flag</source>
        <translation>参数后面的值</translation>
    </message>
    <message>
        <source>pytorch, trt or _autodeploy</source>
        <translation>pytorch、trt 或 _autodeploy</translation>
    </message>
    <message>
        <source>%1 %2 is not read (only a file the text writes, cat &gt; FILE &lt;&lt;&apos;EOF&apos; ... EOF, is): its settings are taken as the engine&apos;s defaults</source>
        <translation>未读取 %1 %2（只读取文本自己写出的文件，即 cat &gt; FILE &lt;&lt;&apos;EOF&apos; ... EOF）：其中的设置按引擎默认值处理</translation>
    </message>
    <message>
        <source>dtype, kv_cache_config.dtype, kv_cache_config.free_gpu_memory_fraction or enable_attention_dp: the options Tally reads; --allow-unknown lists the others</source>
        <translation>dtype、kv_cache_config.dtype、kv_cache_config.free_gpu_memory_fraction 或 enable_attention_dp：Tally 读取的选项；--allow-unknown 会列出其余选项</translation>
    </message>
    <message>
        <source>one of Tally&apos;s own settings of a serving command: name, model.preset, cluster.gpu, cluster.gpus, cluster.price_per_gpu_hour, inference.engine, inference.weight_dtype, inference.prompt_tokens, inference.output_tokens, inference.batch, inference.concurrency</source>
        <translation>推理服务命令中 Tally 自己的设置之一：name、model.preset、cluster.gpu、cluster.gpus、cluster.price_per_gpu_hour、inference.engine、inference.weight_dtype、inference.prompt_tokens、inference.output_tokens、inference.batch、inference.concurrency</translation>
    </message>
    <message>
        <source>cluster.gpu = %1: the command does not name the GPU</source>
        <translation>cluster.gpu = %1：命令没有指明 GPU</translation>
    </message>
    <message>
        <source>model: from the config.json given, not %1</source>
        <translation>model：取自给出的 config.json，而不是 %1</translation>
    </message>
    <message>
        <source>model = the preset %1 (%2): %3 is named as a tuned or re-packed copy of it, with its dimensions</source>
        <translation>model = 预设 %1（%2）：%3 的名称表明它是该模型微调或重新打包的副本，维度相同</translation>
    </message>
    <message>
        <source>inference.weight_dtype = fp8_e4m3: %1 is named as an fp8 checkpoint, whose config the engine reads its quantization from</source>
        <translation>inference.weight_dtype = fp8_e4m3：%1 的名称表明它是 fp8 检查点，引擎从其配置读取量化方式</translation>
    </message>
    <message>
        <source>a preset&apos;s id (tally presets)</source>
        <translation>预设的 id（tally presets）</translation>
    </message>
    <message>
        <source>the Hugging Face checkpoint of a shipped preset (tally presets), or the model&apos;s config.json given with --hf-config</source>
        <translation>内置预设的 Hugging Face 检查点（tally presets），或用 --hf-config 给出模型的 config.json</translation>
    </message>
    <message>
        <source>a price in dollars, &gt;= 0</source>
        <translation>以美元计的价格，&gt;= 0</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>以下之一：%1</translation>
    </message>
    <message>
        <source>inference.weight_dtype = int4: %1 %2 reads the bits from the checkpoint&apos;s config (4 for AWQ and most GPTQ checkpoints; set int8 for an 8-bit one)</source>
        <translation>inference.weight_dtype = int4：%1 %2 从检查点的配置读取位数（AWQ 和大多数 GPTQ 检查点为 4 位；8 位的请设为 int8）</translation>
    </message>
    <message>
        <source>inference.weight_dtype = %1: the engine takes the checkpoint&apos;s dtype (--dtype auto), which Tally does not read</source>
        <translation>inference.weight_dtype = %1：引擎采用检查点的数据类型（--dtype auto），Tally 不读取检查点</translation>
    </message>
    <message>
        <source>the tensor-parallel size (%1) beside --enable-dp-attention: Tally&apos;s data-parallel attention gives each GPU of the group its own share</source>
        <translation>与 --enable-dp-attention 同用时等于张量并行大小（%1）：Tally 的数据并行注意力让组内每个 GPU 各处理自己的一份</translation>
    </message>
    <message>
        <source>inference.prompt_tokens = %1, output_tokens = %2: the command sets only their sum, the longest sequence (%3)</source>
        <translation>inference.prompt_tokens = %1，output_tokens = %2：命令只给出二者之和，即最长序列（%3）</translation>
    </message>
    <message>
        <source>inference.concurrency = %1: the command does not limit the sequences a step runs</source>
        <translation>inference.concurrency = %1：命令没有限制每步运行的序列数</translation>
    </message>
    <message>
        <source>inference.batch = %1, a static batch: the command does not limit the sequences a step runs; set inference.concurrency to the requests you expect in flight</source>
        <translation>inference.batch = %1，静态批次：命令没有限制每步运行的序列数；请把 inference.concurrency 设为预计同时在途的请求数</translation>
    </message>
    <message>
        <source>megatron, nemo, torchtitan, deepspeed or accelerate (a training run), or vllm, sglang or tensorrt_llm (a serving engine&apos;s command)</source>
        <translation>megatron、nemo、torchtitan、deepspeed 或 accelerate（训练运行），或 vllm、sglang、tensorrt_llm（推理服务引擎的命令）</translation>
    </message>
    <message>
        <source>a number of tokens: the model&apos;s own context is not known</source>
        <translation>token 数：模型自身的上下文长度未知</translation>
    </message>
    <message>
        <source>a whole number of tokens, at least 2 (1k = 1000, 1K = 1024)</source>
        <translation>token 数，整数，至少为 2（1k = 1000，1K = 1024）</translation>
    </message>
    <message>
        <source>not a flag of %1 that Tally knows: --allow-unknown lists it instead of refusing it</source>
        <translation>不是 Tally 认识的“%1”参数：--allow-unknown 会列出它而不是拒绝</translation>
    </message>
    <message>
        <source>%1 %2 is not modelled: the plan times TensorRT-LLM&apos;s preset, which its PyTorch and engine runtimes share</source>
        <translation>%1 %2 未建模：计划按 TensorRT-LLM 的预设计时，其 PyTorch 与 engine 两种运行时共用该预设</translation>
    </message>
    <message>
        <source>%1 is not modelled: the plan times %2 as it runs by default (CUDA graphs, the weights on the GPU)</source>
        <translation>%1 未建模：计划按 %2 的默认运行方式计时（CUDA graphs，权重在 GPU 上）</translation>
    </message>
    <message>
        <source>fp8, mxfp4, modelopt_fp4, awq, awq_marlin, gptq or gptq_marlin: the weight formats Tally plans</source>
        <translation>fp8、mxfp4、modelopt_fp4、awq、awq_marlin、gptq 或 gptq_marlin：Tally 能规划的权重格式</translation>
    </message>
    <message>
        <source>inference.weight_dtype = %1: the engine takes the checkpoint&apos;s dtype (the options file&apos;s dtype: auto), which Tally does not read</source>
        <translation>inference.weight_dtype = %1：引擎采用检查点的数据类型（选项文件的 dtype: auto），Tally 不读取检查点</translation>
    </message>
    <message>
        <source>inference.prompt_tokens = %1, output_tokens = %2: the command does not set the longest sequence (the engine takes the model&apos;s context, %3 tokens, and needs its KV cache to hold one such sequence)</source>
        <translation>inference.prompt_tokens = %1，output_tokens = %2：命令没有设定最长序列（引擎取模型的上下文长度 %3 个 token，且其 KV 缓存须能容纳一条这样的序列）</translation>
    </message>
    <message>
        <source>text in UTF-8: the line has a byte that is not (a file saved in another encoding?)</source>
        <translation>UTF-8 文本：这一行有不是 UTF-8 的字节（文件是否以其他编码保存？）</translation>
    </message>
    <message>
        <source>inference.weight_dtype = %1: the weights as the checkpoint %2 holds them</source>
        <translation>inference.weight_dtype = %1：即检查点 %2 保存权重的格式</translation>
    </message>
    <message>
        <source>the longest sequence, %1 tokens, is past the model&apos;s context of %2: the engine starts only with the variable that allows it, and the model was not trained on sequences this long</source>
        <translation>最长序列 %1 个 token，超过了模型的上下文长度 %2：引擎只有在设置了允许它的环境变量后才会启动，而且模型没有在这么长的序列上训练过</translation>
    </message>
    <message>
        <source>true or false, or the flag alone (true)</source>
        <translation>true 或 false，或只写参数本身（即 true）</translation>
    </message>
    <message>
        <source>%1 is not modelled: the plan times TensorRT-LLM&apos;s preset (its C++ runtime&apos;s kernel launches)</source>
        <translation>%1 未建模：计划按 TensorRT-LLM 的预设计时（其 C++ 运行时的 kernel 启动方式）</translation>
    </message>
    <message>
        <source>native or te</source>
        <translation>native 或 te</translation>
    </message>
    <message>
        <source>fp32 for this framework: its loss is PyTorch&apos;s cross-entropy, which keeps an fp32 softmax per logit (%1 cannot express Transformer Engine&apos;s in-place one)</source>
        <translation>此框架只能为 fp32：它的损失是 PyTorch 的交叉熵，为每个 logit 保留一个 fp32 softmax（%1 无法表达 Transformer Engine 的原地交叉熵）</translation>
    </message>
    <message>
        <source>training.cross_entropy = in_place: Transformer Engine&apos;s cross-entropy up to 2.17 writes the gradient over the 16-bit logits and keeps them; from 2.18 it keeps an fp32 gradient, as the other losses keep an fp32 softmax (set fp32 for a newer Transformer Engine)</source>
        <translation>training.cross_entropy = in_place：Transformer Engine 2.17 及以前的交叉熵把梯度覆写在 16 位 logits 上并保留它们；从 2.18 起它保留 fp32 梯度，与其他损失保留 fp32 softmax 一样（较新的 Transformer Engine 请设为 fp32）</translation>
    </message>
    <message>
        <source>%1 = %2: the current plan&apos;s %3 does not hold with this file&apos;s settings</source>
        <translation>%1 = %2：当前计划的 %3 与该文件的设置不相容</translation>
    </message>
    <message>
        <source>%1 = %2: %3 runs it so by design, with no setting in its file</source>
        <translation>%1 = %2：%3 按其设计就是如此运行，其文件中没有对应的设置</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>engine, flash2, flash3 or cudnn: %1 runs Transformer Engine&apos;s attention, FlashAttention or cuDNN&apos;s fused kernel</source>
        <translation>engine、flash2、flash3 或 cudnn：%1运行 Transformer Engine 的注意力，即 FlashAttention 或 cuDNN 的融合 kernel</translation>
    </message>
    <message>
        <source>%1 is not modelled: the plan prefills every prompt whole, as if no request shared a prefix with an earlier one</source>
        <translation>%1 未建模：计划对每个提示都完整预填充，相当于没有请求与之前的请求共享前缀</translation>
    </message>
    <message>
        <source>1 beside --enable-expert-parallel: vLLM then runs data-parallel attention, each rank an engine with its own scheduler, and spreads the experts over tp x dp GPUs, which Tally does not import (SGLang&apos;s --enable-dp-attention it does)</source>
        <translation>与 --enable-expert-parallel 同用时为 1：此时 vLLM 运行数据并行注意力，每个 rank 是一个有自己调度器的引擎，并把专家分布到 tp x dp 块 GPU 上，Tally 不导入这种部署（SGLang 的 --enable-dp-attention 可以导入）</translation>
    </message>
    <message>
        <source>false for vLLM: its data-parallel attention runs as --data-parallel-size ranks with --enable-expert-parallel, each rank an engine with its own scheduler, which this export does not write; SGLang&apos;s --enable-dp-attention is the one it writes</source>
        <translation>对 vLLM 为 false：它的数据并行注意力以 --data-parallel-size 个 rank 加 --enable-expert-parallel 运行，每个 rank 是一个有自己调度器的引擎，此导出不写这种部署；它写的是 SGLang 的 --enable-dp-attention</translation>
    </message>
</context>
<context>
    <name>tally::number_formats</name>
    <message>
        <source>exact</source>
        <translation>精确</translation>
    </message>
    <message>
        <source>rounded</source>
        <translation>已舍入</translation>
    </message>
    <message>
        <source>underflows to zero</source>
        <translation>下溢为零</translation>
    </message>
    <message>
        <source>overflows to infinity</source>
        <translation>上溢为无穷大</translation>
    </message>
    <message>
        <source>saturates at the largest value</source>
        <translation>饱和到最大值</translation>
    </message>
    <message>
        <source>not a number</source>
        <translation>非数值</translation>
    </message>
</context>
<context>
    <name>tally::ops</name>
    <message>
        <source>attention norm</source>
        <translation>注意力归一化</translation>
    </message>
    <message>
        <source>Q down projection</source>
        <translation>Q 降维投影</translation>
    </message>
    <message>
        <source>Q up projection</source>
        <translation>Q 升维投影</translation>
    </message>
    <message>
        <source>Q projection</source>
        <translation>Q 投影</translation>
    </message>
    <message>
        <source>KV down projection</source>
        <translation>KV 降维投影</translation>
    </message>
    <message>
        <source>KV up projection</source>
        <translation>KV 升维投影</translation>
    </message>
    <message>
        <source>Q absorb (W_UK)</source>
        <translation>Q 吸收（W_UK）</translation>
    </message>
    <message>
        <source>V absorb (W_UV)</source>
        <translation>V 吸收（W_UV）</translation>
    </message>
    <message>
        <source>QKV projection</source>
        <translation>QKV 投影</translation>
    </message>
    <message>
        <source>attention (flash)</source>
        <translation>注意力（flash）</translation>
    </message>
    <message>
        <source>attention scores (QK^T)</source>
        <translation>注意力分数（QK^T）</translation>
    </message>
    <message>
        <source>attention softmax</source>
        <translation>注意力 softmax</translation>
    </message>
    <message>
        <source>attention values (PV)</source>
        <translation>注意力加权值（PV）</translation>
    </message>
    <message>
        <source>output projection</source>
        <translation>输出投影</translation>
    </message>
    <message>
        <source>MLP norm</source>
        <translation>MLP 归一化</translation>
    </message>
    <message>
        <source>up projection</source>
        <translation>升维投影</translation>
    </message>
    <message>
        <source>gate projection</source>
        <translation>门控投影</translation>
    </message>
    <message>
        <source>down projection</source>
        <translation>降维投影</translation>
    </message>
    <message>
        <source>SwiGLU</source>
        <translation>SwiGLU</translation>
    </message>
    <message>
        <source>GELU</source>
        <translation>GELU</translation>
    </message>
    <message>
        <source>ReLU</source>
        <translation>ReLU</translation>
    </message>
    <message>
        <source>router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>logits</source>
        <translation>logits</translation>
    </message>
    <message>
        <source>logits softmax</source>
        <translation>logits softmax</translation>
    </message>
    <message>
        <source>layer matmul</source>
        <translation>层矩阵乘</translation>
    </message>
    <message>
        <source>matmul 1024</source>
        <translation>矩阵乘 1024</translation>
    </message>
    <message>
        <source>shared experts %1</source>
        <translation>共享专家 %1</translation>
    </message>
    <message>
        <source>experts %1</source>
        <translation>专家 %1</translation>
    </message>
    <message>
        <source>MLP %1</source>
        <translation>MLP %1</translation>
    </message>
    <message>
        <source>%1 (backward)</source>
        <translation>%1（反向）</translation>
    </message>
    <message>
        <source>%1, sliding window</source>
        <translation>%1，滑动窗口</translation>
    </message>
</context>
<context>
    <name>tally::probe_import</name>
    <message>
        <source>%1 (the file ends inside it: was it cut short?); the line reads %2; nothing was imported</source>
        <translation>%1（文件在其中结束：是否被截断了？）；该行内容为 %2；未导入任何内容</translation>
    </message>
    <message>
        <source>%1; the line reads %2; nothing was imported</source>
        <translation>%1；该行内容为 %2；未导入任何内容</translation>
    </message>
    <message>
        <source>%1; nothing was imported</source>
        <translation>%1；未导入任何内容</translation>
    </message>
    <message>
        <source>the output of tally-probe --list (its tests, no measurements); nothing was imported</source>
        <translation>tally-probe --list 的输出（只有测试列表，没有测量）；未导入任何内容</translation>
    </message>
    <message>
        <source>a run that never started: tally-probe said &quot;%1&quot;; nothing was imported</source>
        <translation>一次未曾开始的运行：tally-probe 报告 &quot;%1&quot;；未导入任何内容</translation>
    </message>
    <message>
        <source>tally-probe JSON lines starting with a start event; nothing was imported</source>
        <translation>以 start 事件开头的 tally-probe JSON 行；未导入任何内容</translation>
    </message>
    <message>
        <source>a complete run without any result event: nothing was measured; nothing was imported</source>
        <translation>一次完整的运行，但没有任何 result 事件：什么都没有测量；未导入任何内容</translation>
    </message>
    <message>
        <source>all_reduce, all_gather, reduce_scatter, alltoall or sendrecv</source>
        <translation>all_reduce、all_gather、reduce_scatter、alltoall 或 sendrecv</translation>
    </message>
    <message>
        <source>nccl-tests test %1 is not one this import reads (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf, sendrecv_perf); nothing was imported</source>
        <translation>nccl-tests 测试 %1 不是此导入能读取的测试（all_reduce_perf、all_gather_perf、reduce_scatter_perf、alltoall_perf、sendrecv_perf）；未导入任何内容</translation>
    </message>
    <message>
        <source>a result row before nccl-tests&apos; column header (# size count type ... busbw #wrong); nothing was imported</source>
        <translation>结果行出现在 nccl-tests 的列标题（# size count type ... busbw #wrong）之前；未导入任何内容</translation>
    </message>
    <message>
        <source>which collective these rows measured is not in the log (older nccl-tests print no &quot;# Collective test starting&quot; line) nor in the file name; name it with --collective all_reduce|all_gather|reduce_scatter|alltoall|sendrecv; nothing was imported</source>
        <translation>日志中（较旧的 nccl-tests 不打印 &quot;# Collective test starting&quot; 行）和文件名中都没有说明这些行测量的是哪种集合通信；请用 --collective all_reduce|all_gather|reduce_scatter|alltoall|sendrecv 指定；未导入任何内容</translation>
    </message>
    <message>
        <source>a result row of %1 columns; the header names %2 (%3 before out-of-place, %4 per placement); nothing was imported</source>
        <translation>结果行有 %1 列；列标题给出 %2 列（out-of-place 之前 %3 列，每种放置方式 %4 列）；未导入任何内容</translation>
    </message>
    <message>
        <source>size %1 is not a byte count; nothing was imported</source>
        <translation>size %1 不是字节数；未导入任何内容</translation>
    </message>
    <message>
        <source>count %1 is not an element count; nothing was imported</source>
        <translation>count %1 不是元素个数；未导入任何内容</translation>
    </message>
    <message>
        <source>%1 (column %2, %3): %4 is not a number from 0 to 1e299; nothing was imported</source>
        <translation>%1（第 %2 列，%3）：%4 不是 0 到 1e299 之间的数；未导入任何内容</translation>
    </message>
    <message>
        <source>in-place</source>
        <translation>in-place</translation>
    </message>
    <message>
        <source>out-of-place</source>
        <translation>out-of-place</translation>
    </message>
    <message>
        <source>#wrong %1 is neither a count nor N/A; nothing was imported</source>
        <translation>#wrong %1 既不是计数也不是 N/A；未导入任何内容</translation>
    </message>
    <message>
        <source>nccl-tests output with at least one result row under its column header; nothing was imported</source>
        <translation>列标题下至少有一行结果的 nccl-tests 输出；未导入任何内容</translation>
    </message>
    <message>
        <source>neither tally-probe JSON lines (a first line {&quot;event&quot;:&quot;start&quot;,...}) nor nccl-tests output (a &quot;# size count type ... busbw&quot; header); nothing was imported</source>
        <translation>既不是 tally-probe JSON 行（第一行为 {&quot;event&quot;:&quot;start&quot;,...}），也不是 nccl-tests 输出（带 &quot;# size count type ... busbw&quot; 标题行）；未导入任何内容</translation>
    </message>
    <message>
        <source>the run ends without a done event and without any result (the probe was stopped, or the file was cut short); nothing was imported</source>
        <translation>这次运行没有 done 事件，也没有任何结果（探测被中止，或文件被截断）；没有导入任何内容</translation>
    </message>
</context>
<context>
    <name>tally::profiles</name>
    <message>
        <source>a run with at least one validated, passed matmul, gemm_shapes, copy or read result, or a collective&apos;s bus bandwidth across two or more ranks</source>
        <translation>一次至少有一个通过验证并且成功的 matmul、gemm_shapes、copy 或 read 结果，或有跨两个及以上 rank 的集合通信总线带宽的运行</translation>
    </message>
    <message>
        <source>a base profile to start from: the device event gives no memory_bytes</source>
        <translation>一个作为起点的基础配置：device 事件没有给出 memory_bytes</translation>
    </message>
    <message>
        <source>a base profile to start from: the run has no validated copy or read result for the bandwidth</source>
        <translation>一个作为起点的基础配置：该运行没有可用于带宽的、通过验证的 copy 或 read 结果</translation>
    </message>
    <message>
        <source>a base profile to start from: the run has no validated matmul result for a peak</source>
        <translation>一个作为起点的基础配置：该运行没有可用于峰值的、通过验证的 matmul 结果</translation>
    </message>
    <message>
        <source>an id of 1 to 64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit (e.g. my-h100)</source>
        <translation>一个由 1 到 64 个字母、数字、&apos;.&apos;、&apos;_&apos; 或 &apos;-&apos; 组成、以字母或数字开头的 id（例如 my-h100）</translation>
    </message>
    <message>
        <source>a non-empty name of at most 200 bytes of UTF-8 text without control characters</source>
        <translation>非空名称，最多 200 字节的 UTF-8 文本，不含控制字符</translation>
    </message>
</context>
<context>
    <name>tally::report</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>训练配方</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>**Total**</source>
        <translation>**总计**</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>FLOPs per token</source>
        <translation>每 token 的 FLOPs</translation>
    </message>
    <message>
        <source>Training FLOPs (model)</source>
        <translation>训练 FLOPs（模型）</translation>
    </message>
    <message>
        <source>Training FLOPs (hardware, HFU %1)</source>
        <translation>训练 FLOPs（硬件，HFU %1）</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Energy (GPU boards at TDP)</source>
        <translation>能耗（GPU 板卡按 TDP）</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 个参数</translation>
    </message>
    <message>
        <source>%1-layer MLP</source>
        <translation>%1 层 MLP</translation>
    </message>
    <message>
        <source>%1-layer transformer</source>
        <translation>%1 层 transformer</translation>
    </message>
    <message>
        <source>%1, %2 tokens, %3 x %4</source>
        <translation>%1，%2 个 token，%3 x %4</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>%1 (%2 parameters, %3 active)</source>
        <translation>%1（%2 个参数，%3 个激活参数）</translation>
    </message>
    <message>
        <source>%1 tokens, sequence length %2, global batch %3, micro-batch %4</source>
        <translation>%1 个 token，序列长度 %2，全局批次 %3，微批次 %4</translation>
    </message>
    <message>
        <source>%1 (predicted)</source>
        <translation>%1（预测值）</translation>
    </message>
    <message>
        <source>, %1 per GPU-hour</source>
        <translation>，每 GPU 小时 %1</translation>
    </message>
    <message>
        <source>%1 x %2 (%3), MFU %4%5</source>
        <translation>%1 x %2（%3），MFU %4%5</translation>
    </message>
    <message>
        <source>params %1, grads %2, master %3, %4 with %5 state, compute %6, activations %7; recompute %8; ZeRO-%9</source>
        <translation>参数 %1，梯度 %2，主权重 %3，%4 使用 %5 状态，计算 %6，激活值 %7；重计算 %8；ZeRO-%9</translation>
    </message>
    <message>
        <source>sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>flash attention</source>
        <translation>flash attention</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>GB = 10^9 bytes; GiB = 2^30 bytes (what nvidia-smi shows).</source>
        <translation>GB = 10^9 字节；GiB = 2^30 字节（nvidia-smi 显示的）。</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <source>of capacity</source>
        <translation>占容量</translation>
    </message>
    <message>
        <source>The plan fits.</source>
        <translation>计划能放下。</translation>
    </message>
    <message>
        <source>**The plan does not fit.**</source>
        <translation>**计划放不下。**</translation>
    </message>
    <message>
        <source>Compute, time and cost</source>
        <translation>计算、时间与成本</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>— (the hardware profile gives no TDP)</source>
        <translation>—（硬件配置没有给出 TDP）</translation>
    </message>
    <message>
        <source>How each figure is computed</source>
        <translation>每个数字是如何计算的</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>With the numbers</source>
        <translation>代入数值</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>%1 (predicted, calibrated)</source>
        <translation>%1（预测值，已校准）</translation>
    </message>
</context>
<context>
    <name>tally::solver</name>
    <message>
        <source>deepest model of this width whose params, grads, optimizer state and activations fit %1 bytes per GPU: %2 layers, %3 parameters</source>
        <translation>该宽度下参数、梯度、优化器状态和激活值能放进每 GPU %1 字节的最深模型：%2 层，%3 个参数</translation>
    </message>
    <message>
        <source>max N = capacity / ((param/z3 + grad/z2 + (master + optimizer)/z1) / (tp x pp)) = %1; bytes per parameter of each state, zK = the dp GPUs it is sharded over from ZeRO stage K on, else 1</source>
        <translation>最大 N = 容量 / ((param/z3 + grad/z2 + (master + optimizer)/z1) / (tp x pp)) = %1；param、grad、master、optimizer 为各状态每个参数的字节数（参数、梯度、主权重、优化器状态），zK = ZeRO 阶段 ≥ K 时该状态所分片的 dp 张 GPU，否则为 1</translation>
    </message>
</context>
<context>
    <name>tally::source</name>
    <message>
        <source>%1: measured on this card (the profile&apos;s %2 is the probe&apos;s)</source>
        <translation>%1：在这张卡上实测（%2 取自该配置的探测结果）</translation>
    </message>
    <message>
        <source>%1: not measured on this card; the best published %2 measurement of the part it is based on</source>
        <translation>%1：未在这张卡上实测；取其所基于器件已公布的最佳实测值（%2）</translation>
    </message>
    <message>
        <source>%1: the best published %2 measurement of %3 in the catalog</source>
        <translation>%1：目录中 %3 已公布的最佳实测值（%2）</translation>
    </message>
    <message>
        <source>%1: no published %2 measurement of %3; the median of the catalog&apos;s parts</source>
        <translation>%1：%3 没有已公布的实测值（%2）；取目录中各器件的中位数</translation>
    </message>
    <message>
        <source>1: no published %1 measurement in the catalog; the datasheet peak</source>
        <translation>1：目录中没有已公布的实测值（%1）；取数据手册峰值</translation>
    </message>
    <message>
        <source>memory bandwidth</source>
        <translation>内存带宽</translation>
    </message>
    <message>
        <source>scale-up link bandwidth</source>
        <translation>节点内互联带宽</translation>
    </message>
    <message>
        <source>DeepSeek-V2 (Liu et al. 2024), sec. 2.1.4, Table 1; the latent is not split by tp</source>
        <translation>DeepSeek-V2 (Liu et al. 2024), sec. 2.1.4, Table 1；潜向量不按 tp 切分</translation>
    </message>
    <message>
        <source>the full context of every sequence of the batch</source>
        <translation>批次中每个序列的完整上下文</translation>
    </message>
    <message>
        <source>the whole context in full layers, the last %1 positions in the %2 sliding-window layers: %3 positions a sequence on average</source>
        <translation>全注意力层保留整个上下文，%2 个滑动窗口层只保留最后 %1 个位置：平均每个序列 %3 个位置</translation>
    </message>
    <message>
        <source>one layer&apos;s working set; nothing is kept for a backward pass</source>
        <translation>一层的工作集；推理不为反向传播保留任何激活</translation>
    </message>
    <message>
        <source>sum of the above</source>
        <translation>以上各项之和</translation>
    </message>
    <message>
        <source>bisection on the memory above</source>
        <translation>对上面的内存二分查找</translation>
    </message>
    <message>
        <source>the engine&apos;s default share of the memory for its KV cache (vLLM gpu_memory_utilization, TensorRT-LLM free_gpu_memory_fraction, SGLang mem_fraction_static); continuous batching admits no more</source>
        <translation>引擎默认留给 KV 缓存的内存比例（vLLM gpu_memory_utilization、TensorRT-LLM free_gpu_memory_fraction、SGLang mem_fraction_static）；连续批处理不会接纳更多</translation>
    </message>
    <message>
        <source>a step runs at most max_batched_tokens tokens (Sarathi-Serve&apos;s token budget, Agrawal et al. 2024, sec. 4.3); continuous batching keeps no more running</source>
        <translation>每步最多运行 max_batched_tokens 个 token（Sarathi-Serve 的 token 预算，Agrawal et al. 2024, sec. 4.3）；连续批处理不会让更多序列同时运行</translation>
    </message>
    <message>
        <source>a step runs at most max_batched_tokens tokens (vLLM max_num_batched_tokens, TensorRT-LLM max_num_tokens); continuous batching keeps no more running</source>
        <translation>每步最多运行 max_batched_tokens 个 token（vLLM max_num_batched_tokens、TensorRT-LLM max_num_tokens）；连续批处理不会让更多序列同时运行</translation>
    </message>
    <message>
        <source>steady state, requests in flight = C</source>
        <translation>稳态，在途请求数 = C</translation>
    </message>
    <message>
        <source>closed loop: a request arrives as its previous one&apos;s last step ends; Pollaczek-Khinchine (Kleinrock 1975, sec. 5.6) with the arrival theorem (Sevcik &amp; Mitrani 1981)</source>
        <translation>闭环：每个请求在其上一个请求的最后一步结束时到达；Pollaczek-Khinchine 公式 (Kleinrock 1975, sec. 5.6) 与到达定理 (Sevcik &amp; Mitrani 1981)</translation>
    </message>
    <message>
        <source>a step runs at most max_batched_tokens tokens; closed loop, Little&apos;s law (Little 1961)</source>
        <translation>每步最多运行 max_batched_tokens 个 token；闭环，利特尔法则 (Little 1961)</translation>
    </message>
    <message>
        <source>engines admit a request only while its KV cache fits (vLLM scheduler; TensorRT-LLM GUARANTEED_NO_EVICT); closed loop, Little&apos;s law (Little 1961)</source>
        <translation>引擎只在请求的 KV 缓存放得下时才接纳它（vLLM 调度器；TensorRT-LLM GUARANTEED_NO_EVICT）；闭环，利特尔法则 (Little 1961)</translation>
    </message>
    <message>
        <source>Little&apos;s law</source>
        <translation>利特尔法则 (Little&apos;s law)</translation>
    </message>
    <message>
        <source>each request at its full context, as the engine reserves it; the sum as the static batch&apos;s total</source>
        <translation>每个请求按其完整上下文计，与引擎的预留方式相同；求和方式与静态批次的总计相同</translation>
    </message>
    <message>
        <source>output tokens of the whole deployment</source>
        <translation>整个部署的输出 token</translation>
    </message>
    <message>
        <source>at the final context</source>
        <translation>按最终上下文长度计</translation>
    </message>
    <message>
        <source>the hardware profile&apos;s price</source>
        <translation>硬件配置中的价格</translation>
    </message>
    <message>
        <source>roofline ridge (Williams et al. 2009); decode turns compute-bound beyond it</source>
        <translation>roofline 拐点（Williams et al. 2009）；超过它解码转为计算受限</translation>
    </message>
    <message>
        <source>the performance model (docs/planner.md)</source>
        <translation>性能模型 (docs/planner.md)</translation>
    </message>
    <message>
        <source>docs/planner.md, the performance model</source>
        <translation>docs/planner.md，性能模型</translation>
    </message>
    <message>
        <source>the spec</source>
        <translation>规格</translation>
    </message>
    <message>
        <source>%1 dense %2 peak from its datasheet</source>
        <translation>%1 数据手册中的稠密 %2 峰值</translation>
    </message>
    <message>
        <source>the hardware profile</source>
        <translation>硬件配置</translation>
    </message>
    <message>
        <source>definition</source>
        <translation>定义</translation>
    </message>
    <message>
        <source>%1 TDP from its hardware profile</source>
        <translation>%1 硬件配置中的 TDP</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
</context>
<context>
    <name>tally::spec_json</name>
    <message>
        <source>must be a JSON object</source>
        <translation>必须是 JSON 对象</translation>
    </message>
    <message>
        <source>must be an integer &gt;= %1 and at most 2^53 = %2</source>
        <translation>必须是 &gt;= %1 且不超过 2^53 = %2 的整数</translation>
    </message>
    <message>
        <source>must be a finite number &gt;= 0</source>
        <translation>必须是 &gt;= 0 的有限数</translation>
    </message>
    <message>
        <source>must be a finite number &gt; 0</source>
        <translation>必须是 &gt; 0 的有限数</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>an operation must be an object {kind, dtype, ...sizes}</source>
        <translation>运算必须是一个对象 {kind, dtype, ...sizes}</translation>
    </message>
    <message>
        <source>one of relu, gelu, dot, matvec, matmul, einsum</source>
        <translation>以下之一：relu, gelu, dot, matvec, matmul, einsum</translation>
    </message>
    <message>
        <source>unknown key for a %1 operation; allowed keys: %2</source>
        <translation>%1 运算不认识这个键；允许的键：%2</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>以下之一：%1</translation>
    </message>
    <message>
        <source>a %1 operation needs a positive integer &apos;%2&apos;</source>
        <translation>%1 运算需要一个正整数 &apos;%2&apos;</translation>
    </message>
    <message>
        <source>must be a number in (0, 1e6]</source>
        <translation>必须是 (0, 1e6] 范围内的数</translation>
    </message>
    <message>
        <source>an einsum needs an expression such as &quot;batch seq hidden, hidden out -&gt; batch seq out&quot;</source>
        <translation>einsum 需要一个表达式，例如 &quot;batch seq hidden, hidden out -&gt; batch seq out&quot;</translation>
    </message>
    <message>
        <source>an einsum needs an object of dimension sizes, e.g. {&quot;batch&quot;: 8}</source>
        <translation>einsum 需要一个由维度尺寸组成的对象，例如 {&quot;batch&quot;: 8}</translation>
    </message>
    <message>
        <source>&quot;...&quot; takes a non-empty array of positive integers, e.g. [4, 5]</source>
        <translation>&quot;...&quot; 需要一个非空的正整数数组，例如 [4, 5]</translation>
    </message>
    <message>
        <source>a number out of the range of a double (magnitude at most about 1.8e308)</source>
        <translation>超出 double 范围的数（绝对值最多约为 1.8e308）</translation>
    </message>
    <message>
        <source>unknown key; allowed here: %1</source>
        <translation>未知的键；此处允许：%1</translation>
    </message>
    <message>
        <source>a mixture of experts needs both experts and active_experts</source>
        <translation>混合专家需要同时给出 experts 和 active_experts</translation>
    </message>
    <message>
        <source>multi-head latent attention needs kv_lora_rank</source>
        <translation>多头潜在注意力需要 kv_lora_rank</translation>
    </message>
    <message>
        <source>give either preset or hf_config</source>
        <translation>只能给出 preset 或 hf_config 之一</translation>
    </message>
    <message>
        <source>the preset or hf_config model is a %1; drop kind or match it</source>
        <translation>preset 或 hf_config 的模型是 %1；请去掉 kind 或使之一致</translation>
    </message>
    <message>
        <source>a &apos;params&apos; model needs params &gt; 0</source>
        <translation>&apos;params&apos; 模型需要 params &gt; 0</translation>
    </message>
    <message>
        <source>an &apos;mlp&apos; model needs layers and hidden</source>
        <translation>&apos;mlp&apos; 模型需要 layers 和 hidden</translation>
    </message>
    <message>
        <source>a transformer needs layers, hidden, heads, ffn_hidden and vocab (or a preset / hf_config)</source>
        <translation>transformer 需要 layers、hidden、heads、ffn_hidden 和 vocab（或 preset / hf_config）</translation>
    </message>
    <message>
        <source>a spec needs a model: {&quot;preset&quot;: ID}, {&quot;params&quot;: N} or the transformer&apos;s dimensions</source>
        <translation>规格需要一个模型：{&quot;preset&quot;: ID}、{&quot;params&quot;: N} 或 transformer 的各维度</translation>
    </message>
    <message>
        <source>the number of training tokens is required</source>
        <translation>必须给出训练 token 数</translation>
    </message>
    <message>
        <source>a number in [0.001, 1] (an assumed MFU) or &quot;predicted&quot;</source>
        <translation>[0.001, 1] 范围内的数（假设的 MFU）或 &quot;predicted&quot;</translation>
    </message>
    <message>
        <source>must be an array of operations</source>
        <translation>必须是运算的数组</translation>
    </message>
    <message>
        <source>a JSON object is required (%1)</source>
        <translation>需要一个 JSON 对象（%1）</translation>
    </message>
    <message>
        <source>cannot open this file for reading</source>
        <translation>无法打开此文件读取</translation>
    </message>
    <message>
        <source>is not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <source>each key once in an object; this one is given twice, and JSON readers differ on which of the two values they keep</source>
        <translation>一个对象中每个键只能出现一次；这个键出现了两次，而不同的 JSON 读取器保留的值各不相同</translation>
    </message>
    <message>
        <source>must be an array of module names (core_attn, layernorm, mla_up_proj, moe_act, mlp)</source>
        <translation>必须是模块名数组（core_attn、layernorm、mla_up_proj、moe_act、mlp）</translation>
    </message>
    <message>
        <source>must be one of core_attn, layernorm, mla_up_proj, moe_act, mlp (Megatron-Core&apos;s recompute modules Tally times)</source>
        <translation>必须是 core_attn、layernorm、mla_up_proj、moe_act、mlp 之一（Tally 能计时的 Megatron-Core 重计算模块）</translation>
    </message>
    <message>
        <source>JSON whose arrays and objects nest at most %1 levels deep; this text nests them deeper</source>
        <translation>数组和对象嵌套不超过 %1 层的 JSON；此文本嵌套更深</translation>
    </message>
    <message>
        <source>is a folder; a spec is a JSON file</source>
        <translation>是一个文件夹；规格应为 JSON 文件</translation>
    </message>
    <message>
        <source>must be 0 (unstated: the framework&apos;s default) or a RoPE base in [1, 1e12] (Llama 3: 500000)</source>
        <translation>必须为 0（不指定：用框架的默认值）或 [1, 1e12] 内的 RoPE 基数（Llama 3：500000）</translation>
    </message>
    <message>
        <source>must be a whole number from 1 to 9e15</source>
        <translation>必须是 1 到 9e15 之间的整数</translation>
    </message>
</context>
<context>
    <name>tally::training_log</name>
    <message>
        <source>a finite number &gt; 0 after &quot;%1&quot;</source>
        <translation>&quot;%1&quot; 之后的一个 &gt; 0 的有限数</translation>
    </message>
    <message>
        <source>the timing lines of one run in one format (the log&apos;s first timing line is %1&apos;s)</source>
        <translation>同一次运行的计时行使用同一种格式（日志的第一条计时行是 %1 的格式）</translation>
    </message>
    <message>
        <source>tokens per second per GPU in [0.001, 1e12]</source>
        <translation>每 GPU 每秒的 token 数，在 [0.001, 1e12] 范围内</translation>
    </message>
    <message>
        <source>a step time in [1e-9, 1e9] s (Megatron-LM&apos;s in ms: [1e-6, 1e12])</source>
        <translation>[1e-9, 1e9] s 范围内的单步时间（Megatron-LM 以 ms 计：[1e-6, 1e12]）</translation>
    </message>
    <message>
        <source>0 or more and fewer than the log&apos;s %1 timing records (the first ones are dropped as warm-up; 0 keeps them all)</source>
        <translation>0 或更多，且少于日志中的 %1 条计时记录（前面的记录作为预热丢弃；0 表示全部保留）</translation>
    </message>
    <message>
        <source>log line %1</source>
        <translation>日志第 %1 行</translation>
    </message>
    <message>
        <source>a training log with lines of &quot;elapsed time per iteration (ms): X&quot; (Megatron-LM), &quot;train_step_timing in s: X&quot; (NeMo) or &quot;tps: N&quot; (torchtitan); none of its %1 lines is one</source>
        <translation>一个含有 &quot;elapsed time per iteration (ms): X&quot;（Megatron-LM）、&quot;train_step_timing in s: X&quot;（NeMo）或 &quot;tps: N&quot;（torchtitan）行的训练日志；该文件的 %1 行中一行也没有</translation>
    </message>
    <message>
        <source>a training log with lines of &quot;elapsed time per iteration (ms): X&quot; (Megatron-LM), &quot;train_step_timing in s: X&quot; (NeMo) or &quot;tps: N&quot; (torchtitan); its one line is not one</source>
        <translation>一个含有 &quot;elapsed time per iteration (ms): X&quot;（Megatron-LM）、&quot;train_step_timing in s: X&quot;（NeMo）或 &quot;tps: N&quot;（torchtitan）行的训练日志；该文件唯一的一行不是这样的行</translation>
    </message>
    <message>
        <source>no rank: the log&apos;s timing lines carry no [rankN]: prefix; leave it out</source>
        <translation>不指定 rank：日志的计时行没有 [rankN]: 前缀；请去掉这个选项</translation>
    </message>
    <message>
        <source>a rank whose timing lines the log holds: %1</source>
        <translation>一个日志中有其计时行的 rank：%1</translation>
    </message>
</context>
<context>
    <name>tally::ui</name>
    <message>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>FLOPs per token</source>
        <translation>每 token 的 FLOPs</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Training FLOPs (model)</source>
        <translation>训练 FLOPs（模型）</translation>
    </message>
    <message>
        <source>Training FLOPs (hardware)</source>
        <translation>训练 FLOPs（硬件）</translation>
    </message>
    <message>
        <source>Dense peak, one GPU</source>
        <translation>稠密峰值，单个 GPU</translation>
    </message>
    <message>
        <source>Achieved, whole cluster</source>
        <translation>实际达到，整个集群</translation>
    </message>
    <message>
        <source>model FLOP/s</source>
        <translation>模型 FLOP/s</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Energy (GPU boards)</source>
        <translation>能耗（GPU 板卡）</translation>
    </message>
    <message>
        <source>kWh</source>
        <translation>kWh</translation>
    </message>
    <message>
        <source>HFU</source>
        <translation>HFU</translation>
    </message>
    <message>
        <source>of peak</source>
        <translation>占峰值比例</translation>
    </message>
    <message>
        <source>Time from</source>
        <translation>时间依据</translation>
    </message>
    <message>
        <source>predicted MFU</source>
        <translation>预测的 MFU</translation>
    </message>
    <message>
        <source>assumed MFU</source>
        <translation>假设的 MFU</translation>
    </message>
    <message>
        <source>cluster.mfu = &quot;predicted&quot; (or absent): steps x the predicted step time; a number: FLOPs / (peak x MFU x GPUs).
%1</source>
        <translation>cluster.mfu = &quot;predicted&quot;（或不填）：步数 × 预测的单步时间；填数字：FLOPs / (峰值 × MFU × GPU 数)。
%1</translation>
    </message>
    <message>
        <source>MFU, assumed</source>
        <translation>MFU，假设值</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>未使用</translation>
    </message>
    <message>
        <source>cluster.mfu as typed: achieved model FLOP/s / dense peak
Source: CS336 lecture 2 (0.5 is good)</source>
        <translation>cluster.mfu 按输入：实际模型 FLOP/s / 稠密峰值
来源：CS336 第 2 讲（0.5 就算好）</translation>
    </message>
    <message>
        <source>MFU, predicted</source>
        <translation>MFU，预测值</translation>
    </message>
    <message>
        <source>Predicted step</source>
        <translation>预测的单步时间</translation>
    </message>
    <message>
        <source>Tokens per step</source>
        <translation>每步 token 数</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>Optimizer steps</source>
        <translation>优化器步数</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>micro-batches</source>
        <translation>个微批次</translation>
    </message>
    <message>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>%1: %2 (%3 of the step)</source>
        <translation>%1：%2（占单步的 %3）</translation>
    </message>
    <message>
        <source>The assumed MFU %1 sets the time; the performance model predicts %2.</source>
        <translation>时间由假设的 MFU %1 决定；性能模型预测为 %2。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>Write the einsum expression, e.g. &quot;batch seq1 hidden, batch seq2 hidden -&gt; batch seq1 seq2&quot;.</source>
        <translation>请写出 einsum 表达式，例如 &quot;batch seq1 hidden, batch seq2 hidden -&gt; batch seq1 seq2&quot;。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not name=value</source>
        <translation>&quot;%1&quot; 不是 name=value 形式</translation>
    </message>
    <message>
        <source>&quot;...&quot; sizes are for einsum expressions only</source>
        <translation>&quot;...&quot; 的尺寸只用于 einsum 表达式</translation>
    </message>
    <message>
        <source>%1 takes the sizes %2, not %3</source>
        <translation>%1 需要的尺寸是 %2，而不是 %3</translation>
    </message>
    <message>
        <source>Give every size of the %1: %2</source>
        <translation>请给出 %1 的每个尺寸：%2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 的 %1</translation>
    </message>
    <message>
        <source>%1 cores</source>
        <translation>%1 核</translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation>%1 线程</translation>
    </message>
    <message>
        <source>compute capability %1</source>
        <translation>计算能力 %1</translation>
    </message>
    <message>
        <source>%1 SMs</source>
        <translation>%1 个 SM</translation>
    </message>
    <message>
        <source>last-level cache %1 MB</source>
        <translation>末级缓存 %1 MB</translation>
    </message>
    <message>
        <source>driver %1</source>
        <translation>驱动 %1</translation>
    </message>
    <message>
        <source>runtime %1</source>
        <translation>运行时 %1</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>waived</source>
        <translation>豁免</translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>未保存</translation>
    </message>
    <message numerus="yes">
        <source>%n result(s)</source>
        <translation>
            <numerusform>%n 个结果</numerusform>
        </translation>
    </message>
    <message>
        <source>matmul %1</source>
        <translation>matmul %1</translation>
    </message>
    <message>
        <source>sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>sweep %1</source>
        <translation>扫描 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Measured: %1&lt;/b&gt; (%2)</source>
        <translation>&lt;b&gt;实测：%1&lt;/b&gt;（%2）</translation>
    </message>
    <message>
        <source>intensity %1 FLOP/byte</source>
        <translation>强度 %1 FLOP/byte</translation>
    </message>
    <message>
        <source>%1&apos;s dense %2 peak</source>
        <translation>%1 的稠密 %2 峰值</translation>
    </message>
    <message>
        <source>%1&apos;s memory bandwidth</source>
        <translation>%1 的内存带宽</translation>
    </message>
    <message>
        <source>%1&apos;s %2 roof at this intensity</source>
        <translation>%1 在此强度下的 %2 屋顶</translation>
    </message>
    <message>
        <source>Measured memory bandwidth (%1): %2</source>
        <translation>实测内存带宽（%1）：%2</translation>
    </message>
    <message>
        <source>%1 of %2&apos;s %3</source>
        <translation>%2 的 %3 的 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Measured %1 roof&lt;/b&gt;</source>
        <translation>&lt;b&gt;实测 %1 屋顶&lt;/b&gt;</translation>
    </message>
    <message>
        <source>matmul peak %1 (%2, %3)</source>
        <translation>matmul 峰值 %1（%2，%3）</translation>
    </message>
    <message>
        <source>%1 of %2&apos;s dense %3</source>
        <translation>%2 稠密 %3 的 %1</translation>
    </message>
    <message>
        <source>ridge %1 FLOP/byte</source>
        <translation>加速器强度 %1 FLOP/byte</translation>
    </message>
    <message>
        <source> (promised %1)</source>
        <translation> （标称 %1）</translation>
    </message>
    <message>
        <source>%1 is not a profile file: it is not JSON (%2)</source>
        <translation>%1 不是配置文件：它不是 JSON（%2）</translation>
    </message>
    <message>
        <source>%1 is not a profile Tally can use: %2</source>
        <translation>%1 不是 Tally 可用的配置文件：%2</translation>
    </message>
    <message>
        <source>%1 cannot be read as a profile: %2</source>
        <translation>%1 无法作为配置文件读取：%2</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Transformer: parameters and activations from the dimensions. Deep ReLU network: CS336 lecture 2&apos;s stack of D x D matmuls. Parameter count only: no architecture, so activations are not counted.</source>
        <translation>Transformer：由尺寸算出参数和激活值。深度 ReLU 网络：CS336 第 2 讲中由 D x D 矩阵乘堆叠而成的网络。只有参数量：没有架构，因此不计激活值。</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Total parameter count N (70B = 70e9).</source>
        <translation>总参数量 N（70B = 70e9）。</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Transformer blocks (L).</source>
        <translation>Transformer 块数（L）。</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏维度</translation>
    </message>
    <message>
        <source>Model width (h, d_model; D for the ReLU network).</source>
        <translation>模型宽度（h，d_model；ReLU 网络中为 D）。</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Query heads (a).</source>
        <translation>查询头数（a）。</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>Key/value heads of grouped-query attention (Ainslie et al. 2023); must divide the query heads. 0: as many as the query heads (multi-head).</source>
        <translation>分组查询注意力的键/值头数（Ainslie et al. 2023）；必须整除查询头数。0：与查询头数相同（多头注意力）。</translation>
    </message>
    <message>
        <source>= heads</source>
        <translation>= 头数</translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Width of one head. 0: hidden size / heads.</source>
        <translation>单个头的宽度。0：隐藏维度 / 头数。</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>FFN hidden size</source>
        <translation>FFN 隐藏维度</translation>
    </message>
    <message>
        <source>Width of the MLP (4h for GELU models; about 8h/3 for SwiGLU).</source>
        <translation>MLP 的宽度（GELU 模型为 4h；SwiGLU 约为 8h/3）。</translation>
    </message>
    <message>
        <source>FFN kind</source>
        <translation>FFN 类型</translation>
    </message>
    <message>
        <source>GELU or ReLU: two matrices. SwiGLU (Shazeer 2020): three.</source>
        <translation>GELU 或 ReLU：两个矩阵。SwiGLU（Shazeer 2020）：三个。</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>Tokens in the vocabulary (V).</source>
        <translation>词表中的 token 数（V）。</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享嵌入</translation>
    </message>
    <message>
        <source>The output head shares the input embedding&apos;s matrix.</source>
        <translation>输出头与输入嵌入共用同一矩阵。</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>LayerNorm has a bias; RMSNorm does not.</source>
        <translation>LayerNorm 带偏置；RMSNorm 不带。</translation>
    </message>
    <message>
        <source>Biases</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Which linear layers carry a bias.</source>
        <translation>哪些线性层带偏置。</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>Routed experts per MoE layer (Shazeer et al. 2017). 0: a dense model.</source>
        <translation>每个 MoE 层的路由专家数（Shazeer et al. 2017）。0：稠密模型。</translation>
    </message>
    <message>
        <source>dense</source>
        <translation>稠密</translation>
    </message>
    <message>
        <source>Active experts</source>
        <translation>激活专家数</translation>
    </message>
    <message>
        <source>Routed experts each token runs through (top-k).</source>
        <translation>每个 token 经过的路由专家数（top-k）。</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <source>Experts every token runs through (DeepSeek).</source>
        <translation>每个 token 都会经过的专家（DeepSeek）。</translation>
    </message>
    <message>
        <source>Expert FFN size</source>
        <translation>专家 FFN 维度</translation>
    </message>
    <message>
        <source>Width of one expert&apos;s MLP. 0: the FFN hidden size.</source>
        <translation>单个专家 MLP 的宽度。0：FFN 隐藏维度。</translation>
    </message>
    <message>
        <source>= FFN</source>
        <translation>= FFN</translation>
    </message>
    <message>
        <source>Dense first layers</source>
        <translation>开头的稠密层</translation>
    </message>
    <message>
        <source>Layers at the bottom that keep a dense MLP.</source>
        <translation>底部保留稠密 MLP 的层数。</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>Data-parallel GPUs the routed experts are spread over, each holding experts / this many (GShard, Lepikhin et al. 2020); must divide the experts and the data-parallel size.</source>
        <translation>路由专家分布到的数据并行 GPU 数，每个 GPU 持有 专家数 / 此值 个专家（GShard，Lepikhin et al. 2020）；必须整除专家数和数据并行规模。</translation>
    </message>
    <message>
        <source>Expert tensor parallel</source>
        <translation>专家张量并行</translation>
    </message>
    <message>
        <source>GPUs each routed expert is split over (Megatron-Core&apos;s --expert-tensor-parallel-size); expert x expert tensor parallel must divide tp x cp x dp. 0: the same as tensor parallel.</source>
        <translation>每个路由专家切分到的 GPU 数（Megatron-Core 的 --expert-tensor-parallel-size）；专家并行 x 专家张量并行必须整除 tp x cp x dp。0：与张量并行相同。</translation>
    </message>
    <message>
        <source>= tp</source>
        <translation>= tp</translation>
    </message>
    <message>
        <source>Routing imbalance</source>
        <translation>路由不均衡度</translation>
    </message>
    <message>
        <source>Tokens the busiest expert receives over the balanced share: 1 for balanced routing (a forced-balance or well-trained aux-loss router); with a capacity factor c and padding to it, c. The slowest expert sets every MoE layer&apos;s time.</source>
        <translation>最忙专家收到的 token 数与均衡份额之比：均衡路由（强制均衡或训练良好的辅助损失路由器）为 1；若有容量因子 c 并按它填充，则为 c。最慢的专家决定每个 MoE 层的时间。</translation>
    </message>
    <message>
        <source>Training tokens</source>
        <translation>训练 token 数</translation>
    </message>
    <message>
        <source>Tokens seen in training, D (15T = 15e12). For the ReLU network: data points.</source>
        <translation>训练中见到的 token 数 D（15T = 15e12）。对 ReLU 网络：数据点数。</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sequence (s).</source>
        <translation>每个序列的 token 数（s）。</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>Sequences per optimizer step; a whole number of micro-batches x data-parallel GPUs. 0: one micro-batch per GPU.</source>
        <translation>每个优化器步的序列数；必须是 微批次 x 数据并行 GPU 数 的整数倍。0：每 GPU 一个微批次。</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Sequences per GPU per forward/backward (b); the rest of the global batch is gradient accumulation.</source>
        <translation>每个 GPU 每次前向/反向处理的序列数（b）；全局批次的其余部分通过梯度累积完成。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPUs in the cluster (tp x pp x dp).</source>
        <translation>集群中的 GPU 数（tp x pp x dp）。</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation: achieved model FLOP/s / dense peak. A number assumes it (0.5 is good, CS336 lecture 2); predicted (0, the slider&apos;s left end): the performance model predicts the step time.</source>
        <translation>模型 FLOPs 利用率：实际模型 FLOP/s / 稠密峰值。填数字即假设该值（0.5 就算好，CS336 第 2 讲）；predicted（0，滑块最左端）：由性能模型预测单步时间。</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>GPUs one scale-up fabric (NVLink/NVSwitch) joins; tensor parallelism stays inside it. 0: the GPU profile&apos;s node size.</source>
        <translation>一个纵向扩展互连（NVLink/NVSwitch）连接的 GPU 数；张量并行留在其内。0：使用 GPU 配置的节点大小。</translation>
    </message>
    <message>
        <source>profile</source>
        <translation>硬件配置</translation>
    </message>
    <message>
        <source>Scale-up bytes/s</source>
        <translation>纵向扩展带宽（字节/秒）</translation>
    </message>
    <message>
        <source>NVLink/NVSwitch bandwidth per GPU per direction, bytes/s (H100 SXM: 450e9). 0: the GPU profile&apos;s.</source>
        <translation>每 GPU 每方向的 NVLink/NVSwitch 带宽，字节/秒（H100 SXM：450e9）。0：使用 GPU 配置的值。</translation>
    </message>
    <message>
        <source>Scale-out bytes/s</source>
        <translation>横向扩展带宽（字节/秒）</translation>
    </message>
    <message>
        <source>InfiniBand/RoCE bandwidth per GPU per direction, bytes/s (one 400 Gb/s NIC per GPU: 50e9). 0: the GPU profile&apos;s.</source>
        <translation>每 GPU 每方向的 InfiniBand/RoCE 带宽，字节/秒（每 GPU 一块 400 Gb/s 网卡：50e9）。0：使用 GPU 配置的值。</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>The software that runs the step, each a documented preset of its fused kernels, attention kernel and overlaps (docs/planner.md): Megatron-Core with Transformer Engine, PyTorch FSDP eager or under torch.compile, DeepSpeed ZeRO.</source>
        <translation>运行训练步的软件，每种都是其融合 kernel、注意力 kernel 和重叠方式的成文预设（docs/planner.md）：带 Transformer Engine 的 Megatron-Core、eager 或 torch.compile 下的 PyTorch FSDP、DeepSpeed ZeRO。</translation>
    </message>
    <message>
        <source>Parameters dtype</source>
        <translation>参数数据类型</translation>
    </message>
    <message>
        <source>Stored weights.</source>
        <translation>存储的权重。</translation>
    </message>
    <message>
        <source>Gradients dtype</source>
        <translation>梯度数据类型</translation>
    </message>
    <message>
        <source>Stored gradients.</source>
        <translation>存储的梯度。</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>A higher-precision copy of the weights the optimizer updates (Micikevicius et al. 2018); none: no copy.</source>
        <translation>优化器更新的高精度权重副本（Micikevicius et al. 2018）；none：没有副本。</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>States per parameter: SGD 0; momentum, AdaGrad, RMSProp, Lion 1; Adam, AdamW, 8-bit Adam 2; Adafactor factored.</source>
        <translation>每个参数的状态数：SGD 0；momentum、AdaGrad、RMSProp、Lion 1；Adam、AdamW、8 位 Adam 2；Adafactor 为分解形式。</translation>
    </message>
    <message>
        <source>Optimizer state dtype</source>
        <translation>优化器状态数据类型</translation>
    </message>
    <message>
        <source>Each optimizer state value.</source>
        <translation>每个优化器状态值。</translation>
    </message>
    <message>
        <source>Compute dtype</source>
        <translation>计算数据类型</translation>
    </message>
    <message>
        <source>The dtype whose dense peak sets the time.</source>
        <translation>其稠密峰值决定时间的数据类型。</translation>
    </message>
    <message>
        <source>FP8 scaling</source>
        <translation>FP8 缩放</translation>
    </message>
    <message>
        <source>How FP8 GEMMs scale their tensors (Transformer Engine): delayed and current per-tensor scaling, 1x128 / 128x128 blocks (DeepSeek-V3), or MXFP8&apos;s 32-value blocks (Blackwell). Read for an fp8 compute dtype.</source>
        <translation>FP8 GEMM 如何缩放张量（Transformer Engine）：按张量的延迟缩放和即时缩放、1x128 / 128x128 分块（DeepSeek-V3），或 MXFP8 的 32 值分块（Blackwell）。计算数据类型为 fp8 时生效。</translation>
    </message>
    <message>
        <source>Activations dtype</source>
        <translation>激活值数据类型</translation>
    </message>
    <message>
        <source>Stored activations.</source>
        <translation>存储的激活值。</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算（激活检查点）</translation>
    </message>
    <message>
        <source>Activation checkpointing: selective recomputes the attention core (Korthikanti et al. 2022); full keeps each layer&apos;s input; sqrt keeps a checkpoint every sqrt(L) layers (Chen et al. 2016).</source>
        <translation>激活检查点：选择性重计算只重算注意力核心（Korthikanti et al. 2022）；完整重计算保留每层的输入；sqrt 每 sqrt(L) 层保留一个检查点（Chen et al. 2016）。</translation>
    </message>
    <message>
        <source>Count recompute working set</source>
        <translation>计入重计算的工作集</translation>
    </message>
    <message>
        <source>Add the activations a recomputed segment re-materialises in backward.</source>
        <translation>加上被重计算的段在反向时重新生成的激活值。</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>Shards over the data-parallel GPUs (Rajbhandari et al. 2020): 1 optimizer state and master weights, 2 also gradients, 3 also parameters.</source>
        <translation>在数据并行 GPU 间分片（Rajbhandari et al. 2020）：1 分片优化器状态和主权重，2 再加梯度，3 再加参数。</translation>
    </message>
    <message>
        <source>0 (none)</source>
        <translation>0（无）</translation>
    </message>
    <message>
        <source>1</source>
        <translation>1</translation>
    </message>
    <message>
        <source>2</source>
        <translation>2</translation>
    </message>
    <message>
        <source>3</source>
        <translation>3</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>GPUs each layer is split over.</source>
        <translation>每层切分到的 GPU 数。</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>Pipeline stages.</source>
        <translation>流水线阶段数。</translation>
    </message>
    <message>
        <source>Context parallel</source>
        <translation>上下文并行</translation>
    </message>
    <message>
        <source>GPUs each sequence is split over; attention runs as a ring over their key/value chunks (Megatron-Core; Llama 3, Dubey et al. 2024, sec. 3.3.2). dp = GPUs / (tp x pp x cp); 2 x cp must divide the sequence.</source>
        <translation>每个序列切分到的 GPU 数；注意力在它们的键/值块上按环运行（Megatron-Core；Llama 3，Dubey et al. 2024，第 3.3.2 节）。dp = GPU 数 / (tp x pp x cp)；2 x cp 必须整除序列长度。</translation>
    </message>
    <message>
        <source>First stage layers</source>
        <translation>第一阶段层数</translation>
    </message>
    <message>
        <source>Last stage layers</source>
        <translation>最后阶段层数</translation>
    </message>
    <message>
        <source>Interleave</source>
        <translation>交错</translation>
    </message>
    <message>
        <source>Virtual pipeline stages per GPU: the interleaved 1F1B schedule cuts the bubble to (pp - 1) / (v x m) (Narayanan et al. 2021, sec. 2.2.2). 1: plain 1F1B. pp x this must divide the layers.</source>
        <translation>每个 GPU 上的虚拟流水线阶段数：交错式 1F1B 调度把气泡缩小到 (pp - 1) / (v x m)（Narayanan et al. 2021，第 2.2.2 节）。1：普通 1F1B。pp x 此值必须整除层数。</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Splits the norms&apos; and dropouts&apos; activations over the tensor-parallel GPUs (Korthikanti et al. 2022).</source>
        <translation>把归一化和 dropout 的激活值切分到张量并行 GPU 上（Korthikanti et al. 2022）。</translation>
    </message>
    <message>
        <source>Overlap DP traffic</source>
        <translation>重叠数据并行通信</translation>
    </message>
    <message>
        <source>Data-parallel gradient (and ZeRO-3 parameter) collectives run in buckets behind the backward (forward) pass (PyTorch DDP, Li et al. 2020); off: after it, all exposed.</source>
        <translation>数据并行的梯度（以及 ZeRO-3 的参数）集合通信分桶隐藏在反向（前向）计算之后（PyTorch DDP，Li et al. 2020）；关闭：在其之后进行，全部暴露。</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Optimizer state (ZeRO-Offload, Ren et al. 2021), or also parameters and gradients (ZeRO-Infinity, ZeRO-3 only), kept in host memory and moved over PCIe.</source>
        <translation>把优化器状态（ZeRO-Offload，Ren et al. 2021），或再加上参数和梯度（ZeRO-Infinity，仅 ZeRO-3）保存在主机内存中，经 PCIe 传输。</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash attention</translation>
    </message>
    <message>
        <source>The attention scores are never stored (Dao et al. 2022).</source>
        <translation>从不存储注意力分数（Dao et al. 2022）。</translation>
    </message>
    <message>
        <source>Attention kernel</source>
        <translation>注意力 kernel</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Dropout masks are stored.</source>
        <translation>存储 dropout 掩码。</translation>
    </message>
    <message>
        <source>FLOPs formula</source>
        <translation>FLOPs 公式</translation>
    </message>
    <message>
        <source>6·N·D (CS336 lecture 2; Kaplan et al. 2020) or with the attention term (PaLM, Chowdhery et al. 2022, appendix B).</source>
        <translation>6·N·D（CS336 第 2 讲；Kaplan et al. 2020）或加上注意力项（PaLM，Chowdhery et al. 2022，附录 B）。</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批次</translation>
    </message>
    <message>
        <source>Sequences decoded together on each replica.</source>
        <translation>每个副本上一起解码的序列数。</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示 token 数</translation>
    </message>
    <message>
        <source>Tokens of each prompt (the prefill).</source>
        <translation>每个提示的 token 数（预填充）。</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>输出 token 数</translation>
    </message>
    <message>
        <source>Tokens generated per sequence, one decode step each.</source>
        <translation>每个序列生成的 token 数，每个需要一次解码步。</translation>
    </message>
    <message>
        <source>GPUs of one replica; cluster.gpus / tp replicas serve side by side.</source>
        <translation>一个副本的 GPU 数；cluster.gpus / tp 个副本并行提供服务。</translation>
    </message>
    <message>
        <source>Weight dtype</source>
        <translation>权重数据类型</translation>
    </message>
    <message>
        <source>How the weights are stored: weight-only quantization reads fewer bytes per weight in every decode step.</source>
        <translation>权重如何存储：仅权重量化会让每次解码步读取每个权重的字节更少。</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV 缓存数据类型</translation>
    </message>
    <message>
        <source>How the keys and values (or MLA&apos;s latent) are cached.</source>
        <translation>键和值（或 MLA 的潜在向量）如何缓存。</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Memory-bound</source>
        <translation>内存受限</translation>
    </message>
    <message>
        <source>TP comm</source>
        <translation>TP 通信</translation>
    </message>
    <message>
        <source>PP comm</source>
        <translation>PP 通信</translation>
    </message>
    <message>
        <source>PP bubble</source>
        <translation>PP 气泡</translation>
    </message>
    <message>
        <source>DP exposed</source>
        <translation>未重叠的 DP 通信</translation>
    </message>
    <message>
        <source>EP all-to-all</source>
        <translation>EP all-to-all</translation>
    </message>
    <message>
        <source>CP exchange</source>
        <translation>CP 交换</translation>
    </message>
    <message>
        <source>Launch gaps</source>
        <translation>启动间隙</translation>
    </message>
    <message>
        <source>NCCL SMs</source>
        <translation>NCCL 占用的 SM</translation>
    </message>
    <message>
        <source>No published %1 %2 run to compare the prediction with.</source>
        <translation>没有已公布的 %1 %2 运行可与预测比较。</translation>
    </message>
    <message>
        <source>The predicted MFU %1 sets the time (cluster.mfu = predicted). %2</source>
        <translation>时间由预测的 MFU %1 决定（cluster.mfu = predicted）。%2</translation>
    </message>
    <message>
        <source>Serving engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>The engine that serves, each a documented preset of CUDA graphs, fused kernels, attention kernel and all-reduce (docs/serving.md).</source>
        <translation>提供推理服务的引擎，每个都是有文档记载的预设，涵盖 CUDA graphs、融合 kernel、注意力 kernel 和 all-reduce（docs/serving.md）。</translation>
    </message>
    <message>
        <source>Concurrency</source>
        <translation>并发数</translation>
    </message>
    <message>
        <source>Continuous batching: requests in flight per replica (0: a static batch).</source>
        <translation>连续批处理：每个副本上同时进行中的请求数（0：静态批处理）。</translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <source>Pipeline-parallel stages of one replica; cluster.gpus / (tp x pp) replicas.</source>
        <translation>一个副本的流水线并行阶段数；共 cluster.gpus / (tp x pp) 个副本。</translation>
    </message>
    <message>
        <source>Recomputed layers</source>
        <translation>重计算层数</translation>
    </message>
    <message>
        <source>With full recomputation: the layers of each pipeline stage (each virtual stage) that are recomputed; the others keep all their activations (Megatron&apos;s --recompute-method block --recompute-num-layers). 0: every layer.</source>
        <translation>完全重计算时：每个流水线阶段（每个虚拟阶段）中重算的层数；其余层保留全部激活（Megatron 的 --recompute-method block --recompute-num-layers）。0：所有层。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Overlap TP traffic</source>
        <translation>重叠张量并行通信</translation>
    </message>
    <message>
        <source>Tensor-parallel all-gathers and reduce-scatters cut into chunks that run while the GEMMs beside them compute (Transformer Engine&apos;s userbuffers, Megatron&apos;s --tp-comm-overlap). Needs sequence parallelism.</source>
        <translation>张量并行的 all-gather 和 reduce-scatter 切成小块，在相邻 GEMM 计算的同时传输（Transformer Engine 的 userbuffers，Megatron 的 --tp-comm-overlap）。需要序列并行。</translation>
    </message>
    <message>
        <source>Overlap EP traffic</source>
        <translation>重叠专家并行通信</translation>
    </message>
    <message>
        <source>Expert-parallel all-to-alls of one micro-batch run while another micro-batch computes the same layer (Megatron&apos;s --overlap-moe-expert-parallel-comm; DeepSeek-V3&apos;s DualPipe). Needs two or more micro-batches per step.</source>
        <translation>一个微批次的专家并行 all-to-all 与另一个微批次在同一层的计算同时进行（Megatron 的 --overlap-moe-expert-parallel-comm；DeepSeek-V3 的 DualPipe）。每步需要两个或更多微批次。</translation>
    </message>
    <message>
        <source>Offloaded layers</source>
        <translation>卸载层数</translation>
    </message>
    <message>
        <source>Transformer layers whose activations go to host memory after their forward pass and come back for their backward, over the host link (Megatron&apos;s cpu_offloading_num_layers). One pipeline stage, no recomputation. 0: none.</source>
        <translation>前向之后把激活经主机链路移到主机内存、反向时再取回的 Transformer 层数（Megatron 的 cpu_offloading_num_layers）。仅限单个流水线阶段、不重计算。0：不卸载。</translation>
    </message>
    <message>
        <source>Token dispatcher</source>
        <translation>Token 分发器</translation>
    </message>
    <message>
        <source>How routed tokens reach their experts: an all-to-all of every token copy, or the flex dispatcher (DeepEP, HybridEP), which sends a token across the network once per node holding its experts and forwards it there over NVLink (Megatron&apos;s --moe-token-dispatcher-type).</source>
        <translation>路由后的 token 如何到达其专家：all-to-all 发送每个 token 副本；flex 分发器（DeepEP、HybridEP）则对每个持有其专家的节点只跨网络发送一次，再在节点内经 NVLink 转发（Megatron 的 --moe-token-dispatcher-type）。</translation>
    </message>
    <message>
        <source>The fused attention kernel: the engine&apos;s (cuDNN for Megatron-Core, FlashAttention-2 for FSDP and DeepSpeed), or FlashAttention-2/-3, cuDNN, Triton or the first FlashAttention, each at its published throughput.</source>
        <translation>融合注意力 kernel：引擎自带的（Megatron-Core 用 cuDNN，FSDP 和 DeepSpeed 用 FlashAttention-2），或 FlashAttention-2/-3、cuDNN、Triton、第一版 FlashAttention，各按其公开的吞吐量。</translation>
    </message>
    <message>
        <source>MoE runs</source>
        <translation>MoE 运行</translation>
    </message>
    <message>
        <source>dense runs</source>
        <translation>稠密模型运行</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>FSDP backward prefetch</source>
        <translation>FSDP 反向预取</translation>
    </message>
    <message>
        <source>When a fully sharded (ZeRO-3) step gathers the next layer&apos;s parameters in the backward pass: before the current layer&apos;s gradients, so the gather runs beside them (PyTorch&apos;s BACKWARD_PRE, its default), or after them, so every gather waits (BACKWARD_POST, MosaicML Composer&apos;s default).</source>
        <translation>完全分片（ZeRO-3）训练在反向传播中何时收集下一层的参数：在当前层的梯度计算之前，使收集与之并行（PyTorch 的 BACKWARD_PRE，其默认值）；或在其之后，使每次收集都要等待（BACKWARD_POST，MosaicML Composer 的默认值）。</translation>
    </message>
    <message>
        <source>Optimizer kernels</source>
        <translation>优化器 kernel</translation>
    </message>
    <message>
        <source>How the Adam update runs over the shard: one fused kernel (Apex / Transformer Engine FusedAdam, which Megatron-Core and DeepSpeed run), or a pass per operation (torch.optim.AdamW&apos;s default foreach implementation), which moves about 2.8x the bytes. The engine&apos;s by default.</source>
        <translation>Adam 更新如何遍历本卡的分片：一个融合 kernel（Apex / Transformer Engine 的 FusedAdam，Megatron-Core 与 DeepSpeed 使用），或每个运算遍历一次（torch.optim.AdamW 默认的 foreach 实现），搬运的字节约为前者的 2.8 倍。默认取执行引擎的设置。</translation>
    </message>
    <message>
        <source>Host time a step (ms)</source>
        <translation>每步主机时间（ms）</translation>
    </message>
    <message>
        <source>Host time, in milliseconds, that every decode step and prefill pass waits for: a runtime that synchronises with the host after each step and prepares the next before launching it. No published figure gives one for any engine, so each preset&apos;s is 0; enter your runtime&apos;s own (a profiler&apos;s GPU-idle gap between steps).</source>
        <translation>每个解码步和每次预填充都要等待的主机时间（毫秒）：运行时在每步之后与主机同步、并在启动下一步之前准备它时会产生。没有任何引擎有公开的数值，因此每个预设都取 0；请填入你的运行时自己的值（性能分析器中两步之间 GPU 空闲的间隔）。</translation>
    </message>
    <message>
        <source>engine&apos;s</source>
        <translation>引擎默认</translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>Positions a query of a sliding-window layer attends to, itself included (Mistral 7B v0.1: 4096; GPT-OSS: 128). Windowed layers score, store and read at most this many keys. 0: every layer attends to the whole sequence.</source>
        <translation>滑动窗口层中每个查询关注的位置数，含其自身（Mistral 7B v0.1：4096；GPT-OSS：128）。窗口层最多对这么多个键打分、存储和读取。0：每一层都关注整个序列。</translation>
    </message>
    <message>
        <source>Windowed layers</source>
        <translation>窗口层数</translation>
    </message>
    <message>
        <source>How many of the layers attend through the sliding window (GPT-OSS: 18 of 36, alternating; Gemma 3: 5 of every 6); the rest attend to the whole sequence. 0: all of them.</source>
        <translation>通过滑动窗口做注意力的层数（GPT-OSS：36 层中的 18 层，交替排列；Gemma 3：每 6 层中 5 层）；其余层关注整个序列。0：全部层。</translation>
    </message>
    <message>
        <source>a number &gt;= 0</source>
        <translation>不小于 0 的数</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <source>%1 (copy %2)</source>
        <translation>%1（副本 %2）</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>The longest sequence, prompt and output together, the model&apos;s configuration serves (a config.json&apos;s max_position_embeddings; Llama 2: 4096, Llama 3.1: 131072). Serving past it is warned about: engines refuse such requests. It sizes nothing, and training may use a longer sequence. 0: not stated.</source>
        <translation>模型配置所支持的最长序列（提示与输出合计；即 config.json 的 max_position_embeddings；Llama 2：4096，Llama 3.1：131072）。推理超过它时会给出警告：推理引擎会拒绝这样的请求。它不影响任何内存或时间的计算，训练也可以使用更长的序列。0：未说明。</translation>
    </message>
    <message>
        <source>unstated</source>
        <translation>未说明</translation>
    </message>
    <message>
        <source>&quot;...&quot; size &quot;%1&quot; is not a whole number from 1 to 9e15</source>
        <translation>&quot;...&quot; 的大小 &quot;%1&quot; 不是 1 到 9e15 之间的整数</translation>
    </message>
    <message>
        <source>size of %1: &quot;%2&quot; is not a whole number from 1 to 9e15</source>
        <translation>%1 的大小：&quot;%2&quot; 不是 1 到 9e15 之间的整数</translation>
    </message>
    <message>
        <source>GPUs of the tensor-parallel group the routed experts are spread over (vLLM&apos;s --enable-expert-parallel, SGLang&apos;s --ep-size); divides tp and the experts.</source>
        <translation>路由专家分布在张量并行组中的多少块 GPU 上（vLLM 的 --enable-expert-parallel，SGLang 的 --ep-size）；须整除 tp 与专家数。</translation>
    </message>
    <message>
        <source>Data-parallel attention</source>
        <translation>数据并行注意力</translation>
    </message>
    <message>
        <source>Each GPU of the tensor-parallel group attends its own share of the batch with all the attention weights (SGLang&apos;s --enable-dp-attention), so an MLA cache is not copied to every GPU.</source>
        <translation>张量并行组中的每块 GPU 持有全部注意力权重，各自处理批次中属于自己的一份（SGLang 的 --enable-dp-attention），这样 MLA 缓存不必在每块 GPU 上复制一份。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>Chunked prefill</source>
        <translation>分块预填充</translation>
    </message>
    <message>
        <source>Continuous batching: new prompts are prefilled in chunks inside the decode steps (vLLM&apos;s enable_chunked_prefill); off, each prompt runs whole in a step of its own and may not be longer than a step&apos;s tokens.</source>
        <translation>连续批处理：新提示分块放进解码步中预填充（vLLM 的 enable_chunked_prefill）；关闭时每个提示在单独的一步中整段运行，长度不能超过一步的 token 数。</translation>
    </message>
    <message>
        <source>Tokens a step</source>
        <translation>每步 token 数</translation>
    </message>
    <message>
        <source>The most tokens one engine step runs, decodes and prompt chunks together (vLLM&apos;s max_num_batched_tokens, TensorRT-LLM&apos;s max_num_tokens).</source>
        <translation>引擎一步最多运行的 token 数，解码与提示分块合计（vLLM 的 max_num_batched_tokens，TensorRT-LLM 的 max_num_tokens）。</translation>
    </message>
    <message>
        <source>Quantization group</source>
        <translation>量化分组</translation>
    </message>
    <message>
        <source>Weights that share one scale in int4 / int8 weight-only formats (GPTQ, AWQ: 128); 0: one scale per output channel.</source>
        <translation>int4 / int8 仅权重量化格式中共用一个缩放因子的权重数（GPTQ、AWQ：128）；0：每个输出通道一个缩放因子。</translation>
    </message>
    <message>
        <source>per channel</source>
        <translation>按通道</translation>
    </message>
    <message>
        <source>No published %1 run on this GPU to compare the prediction with.</source>
        <translation>没有在这种 GPU 上的已公布 %1 运行可与预测比较。</translation>
    </message>
    <message>
        <source>In your currency; 0: the GPU profile&apos;s price, where it has one (else no cost figure).</source>
        <translation>以你的货币计；0：使用 GPU 配置中的价格（若有，否则不显示成本）。</translation>
    </message>
    <message>
        <source>±%1% mean error on %2 published %3 %4 %5 (worst %6%), the model&apos;s before calibration.</source>
        <translation>在 %2 个已公布的 %3 %4 %5上平均误差 ±%1%（最差 %6%），为校准前模型的误差。</translation>
    </message>
    <message>
        <source>±%1% mean error on %2 published %3 %4 %5 (worst %6%).</source>
        <translation>在 %2 个已公布的 %3 %4 %5上平均误差 ±%1%（最差 %6%）。</translation>
    </message>
    <message>
        <source>The predicted MFU %1, calibrated on the profile&apos;s measured run, sets the time (cluster.mfu = predicted). %2</source>
        <translation>按该配置的实测运行校准后的预测 MFU %1 决定时间（cluster.mfu = predicted）。%2</translation>
    </message>
    <message>
        <source>The calibration was fitted on a run of %1, and this plan runs %2: its efficiency is the other engine&apos;s.</source>
        <translation>校准是在 %1 的运行上拟合的，而这个规划使用 %2：其效率属于另一个引擎。</translation>
    </message>
    <message>
        <source>QK-norm</source>
        <translation>QK 归一化</translation>
    </message>
    <message>
        <source>Each head&apos;s query and key normalised before attention (Qwen3, Gemma 3): two norms of the head dimension a layer, their traffic, and the queries and keys kept for the norms&apos; backward.</source>
        <translation>注意力之前对每个头的查询和键做归一化（Qwen3、Gemma 3）：每层两个头维度大小的归一化，计入其访存，以及为归一化反向传播保存的查询和键。</translation>
    </message>
    <message>
        <source>Cannot write %1: the file is read-only</source>
        <translation>无法写入 %1：该文件是只读的</translation>
    </message>
    <message>
        <source>MTP depth</source>
        <translation>MTP 深度</translation>
    </message>
    <message>
        <source>Multi-token-prediction modules trained with the model (DeepSeek-V3: 1). Each adds a layer of the last layer&apos;s kind, a 2h x h projection and three norms on the last pipeline stage, with its own logits through the shared output head. Serving leaves them out. 0: none.</source>
        <translation>与模型一同训练的多 token 预测（MTP）模块数（DeepSeek-V3：1）。每个模块在最后一个流水线阶段增加一层与最后一层同类的层、一个 2h x h 投影和三个归一化，并经共享的输出头算出自己的 logits。推理服务不加载它们。0：无。</translation>
    </message>
    <message>
        <source>the profile&apos;s, if any</source>
        <translation>配置中的（如有）</translation>
    </message>
    <message>
        <source>Memory share</source>
        <translation>内存份额</translation>
    </message>
    <message>
        <source>The engine&apos;s memory-share setting the KV cache is sized in: vLLM&apos;s gpu_memory_utilization (of the whole memory, default 0.9), TensorRT-LLM&apos;s free_gpu_memory_fraction (of what the weights leave, 0.9), SGLang&apos;s mem_fraction_static (0.88 to 0.79 by tp); 0: the engine&apos;s default.</source>
        <translation>引擎用来确定 KV 缓存大小的内存份额设置：vLLM 的 gpu_memory_utilization（占全部内存，默认 0.9）、TensorRT-LLM 的 free_gpu_memory_fraction（占权重之外剩余内存，0.9）、SGLang 的 mem_fraction_static（随 tp 为 0.88 到 0.79）；0：引擎默认值。</translation>
    </message>
    <message>
        <source>Cross-entropy keeps</source>
        <translation>交叉熵保留</translation>
    </message>
    <message>
        <source>What the loss keeps of each logit for the backward pass: an fp32 softmax, 4 bytes (PyTorch, Megatron-Core&apos;s own cross-entropy; Korthikanti et al. 2022, sec. 4.4), or the gradient written over the 16-bit logits, 2 bytes (Transformer Engine&apos;s parallel_cross_entropy up to 2.17, Megatron-Core&apos;s cross_entropy_fusion_impl te).</source>
        <translation>损失为反向传播给每个 logit 保留什么：一个 fp32 softmax，4 字节（PyTorch、Megatron-Core 自带的交叉熵；Korthikanti et al. 2022，第 4.4 节），或覆写在 16 位 logits 上的梯度，2 字节（Transformer Engine 2.17 及以前的 parallel_cross_entropy，Megatron-Core 的 cross_entropy_fusion_impl te）。</translation>
    </message>
    <message>
        <source> Every one of them took longer than predicted: %1x the predicted time on average, up to %2x.</source>
        <translation>每一次都比预测慢：平均为预测时间的 %1 倍，最多 %2 倍。</translation>
    </message>
    <message>
        <source> Every one of them ran faster than predicted: in %1x the predicted time on average.</source>
        <translation>每一次都比预测快：平均只用了预测时间的 %1 倍。</translation>
    </message>
    <message>
        <source>Layers by stage</source>
        <translation>各阶段层数</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Transformer layers on each pipeline stage, first to last (a run of equal middle stages as &quot;layers x stages&quot;); the first also holds the embedding, the last the output layer. Given by training.first_stage_layers and last_stage_layers, or spread by the engine when they are 0 (auto).
Source: Megatron-Core transformer_block.py, get_num_layers_to_build</source>
        <translation>每个流水线阶段上的 Transformer 层数，从第一个到最后一个（层数相同的一串中间阶段写作“层数 x 阶段数”）；第一个阶段还放嵌入层，最后一个阶段还放输出层。由 training.first_stage_layers 和 last_stage_layers 给出，为 0（自动）时由引擎分配。
来源：Megatron-Core transformer_block.py，get_num_layers_to_build</translation>
    </message>
    <message>
        <source>Transformer layers on the last pipeline stage, which also holds the output layer (Megatron&apos;s --decoder-last-pipeline-num-layers). 0 (auto): as the first stage&apos;s auto spreads them.</source>
        <translation>最后一个流水线阶段上的 Transformer 层数，该阶段还放输出层（Megatron 的 --decoder-last-pipeline-num-layers）。0（自动）：按第一个阶段的自动分配方式分配。</translation>
    </message>
    <message>
        <source>Transformer layers on the first pipeline stage, which also holds the embedding (Megatron&apos;s --decoder-first-pipeline-num-layers). 0 (auto): spread evenly, the embedding and the output layer counted as a layer each when pp does not divide the layers; under Megatron-Core, which builds equal middle stages, the ends take what those leave. The Time and cost panel lists the spread (&quot;Layers by stage&quot;).</source>
        <translation>第一个流水线阶段上的 Transformer 层数，该阶段还放嵌入层（Megatron 的 --decoder-first-pipeline-num-layers）。0（自动）：均匀分配，pp 不能整除层数时嵌入层和输出层各算一层；Megatron-Core 只构建层数相同的中间阶段，此时两端取中间阶段剩下的层。“时间与成本”面板列出分配结果（“各阶段层数”）。</translation>
    </message>
</context>
<context>
    <name>tally::ui::BitLayoutWidget</name>
    <message>
        <source>sign</source>
        <translation>符号</translation>
    </message>
    <message>
        <source>exponent</source>
        <translation>指数</translation>
    </message>
    <message>
        <source>mantissa</source>
        <translation>尾数</translation>
    </message>
    <message>
        <source>block scale</source>
        <translation>块缩放</translation>
    </message>
    <message>
        <source>%1 bits</source>
        <translation>%1 位</translation>
    </message>
    <message>
        <source>%1 bits, stored in %2</source>
        <translation>%1 位，存储为 %2</translation>
    </message>
    <message>
        <source>+ %1 scale per %2 values = %3 bits/value</source>
        <translation>+ 每 %2 个值一个 %1 缩放 = %3 位/值</translation>
    </message>
    <message>
        <source>%1: %2 exponent bits (bias %3), %4 mantissa bits; max %5, epsilon %6
Source: %7</source>
        <translation>%1：%2 个指数位（偏置 %3），%4 个尾数位；最大值 %5，epsilon %6
来源：%7</translation>
    </message>
</context>
<context>
    <name>tally::ui::CalibrationDialog</name>
    <message>
        <source>Measured step:</source>
        <translation>实测单步时间：</translation>
    </message>
    <message>
        <source>Training log:</source>
        <translation>训练日志：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Calibrate from a measured step</source>
        <translation>根据实测单步时间校准</translation>
    </message>
    <message>
        <source>this plan</source>
        <translation>此计划</translation>
    </message>
    <message>
        <source>Fits the model&apos;s overall efficiency on %1 to a step your run measured: efficiency = predicted step / measured step, stored in a profile of the part; every step predicted on that profile is divided by it. The run must be %2 as the plan has it (layout, batch, sequence length).</source>
        <translation>把模型在 %1 上的总体效率拟合到你的运行实测的单步时间：效率 = 预测单步时间 / 实测单步时间，存入该硬件的一个配置中；在该配置上预测的每个单步时间都会除以它。该运行必须与计划中的 %2 一致（并行布局、批次、序列长度）。</translation>
    </message>
    <message>
        <source>Measured step in seconds</source>
        <translation>实测单步时间（秒）</translation>
    </message>
    <message>
        <source>seconds per optimizer step, e.g. 12.5</source>
        <translation>每个优化器步的秒数，例如 12.5</translation>
    </message>
    <message>
        <source>Training log file</source>
        <translation>训练日志文件</translation>
    </message>
    <message>
        <source>Megatron-LM, NeMo or torchtitan log</source>
        <translation>Megatron-LM、NeMo 或 torchtitan 日志</translation>
    </message>
    <message>
        <source>Warm-up records dropped</source>
        <translation>丢弃的预热记录数</translation>
    </message>
    <message>
        <source>Timing lines dropped from the start of the log as warm-up; the measured step is the median of the rest. Megatron-LM prints iteration 1 alone and its next line still averages over it; torchtitan prints step 1 alone.</source>
        <translation>作为预热从日志开头丢弃的计时行数；实测单步时间取其余行的中位数。Megatron-LM 单独打印第 1 次迭代，而且下一行的平均值仍包含它；torchtitan 单独打印第 1 步。</translation>
    </message>
    <message>
        <source>Profile id</source>
        <translation>配置 id</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>Warm-up records dropped:</source>
        <translation>丢弃的预热记录数：</translation>
    </message>
    <message>
        <source>Store in profile id:</source>
        <translation>存入配置 id：</translation>
    </message>
    <message>
        <source>Profile name:</source>
        <translation>配置名称：</translation>
    </message>
    <message>
        <source>Calibrate and use</source>
        <translation>校准并使用</translation>
    </message>
    <message>
        <source>Training log</source>
        <translation>训练日志</translation>
    </message>
    <message>
        <source>Logs (*.log *.txt *.out);;All files (*)</source>
        <translation>日志 (*.log *.txt *.out);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Training log: %1 is the workspace&apos;s own file, not a log.</source>
        <translation>训练日志：%1 是工作区自己的文件，不是日志。</translation>
    </message>
    <message>
        <source>Training log: %1 cannot be read (%2).</source>
        <translation>训练日志：无法读取 %1（%2）。</translation>
    </message>
    <message>
        <source>Training log: %1</source>
        <translation>训练日志：%1</translation>
    </message>
    <message>
        <source>Measured step</source>
        <translation>实测单步时间</translation>
    </message>
    <message>
        <source>Enter the step your run measured, or read a log.</source>
        <translation>请输入你的运行实测的单步时间，或读取一个日志。</translation>
    </message>
    <message>
        <source>Choose a training log (Browse…).</source>
        <translation>请选择一个训练日志（浏览…）。</translation>
    </message>
    <message>
        <source>Predicted %1 s (the model, uncalibrated) / measured %2 s = efficiency %3. Every step predicted on %4 is divided by %3; this plan&apos;s step becomes %2 s. Measured: %5.</source>
        <translation>预测 %1 s（模型，未校准）/ 实测 %2 s = 效率 %3。在 %4 上预测的每个单步时间都会除以 %3；此计划的单步时间变为 %2 s。实测来源：%5。</translation>
    </message>
    <message>
        <source>No workspace is open: the calibrated profile has nowhere to be stored.</source>
        <translation>没有打开工作区：校准后的配置无处存储。</translation>
    </message>
    <message>
        <source>Calibrate on %1</source>
        <translation>在 %1 上校准</translation>
    </message>
    <message>
        <source>Press Enter to read %1.</source>
        <translation>按 Enter 读取 %1。</translation>
    </message>
    <message>
        <source>Profile %1 (&quot;%2&quot;) is another profile: the workspace keeps it and refuses this id. Choose another.</source>
        <translation>配置 %1（“%2”）是另一个配置：工作区会保留它并拒绝此 id。请换一个。</translation>
    </message>
    <message>
        <source>Profile %1 (&quot;%2&quot;) is calibrated in place.</source>
        <translation>配置 %1（“%2”）将在原处校准。</translation>
    </message>
    <message>
        <source>Profile %1 (&quot;%2&quot;) exists: its calibration (efficiency %3, %4) is replaced; its notes, price and board power are kept. Another id keeps it.</source>
        <translation>配置 %1（“%2”）已存在：它的校准（效率 %3，%4）将被替换，其备注、价格和板卡功耗保留。换一个 id 可保留它。</translation>
    </message>
    <message>
        <source>This plan does not fit its GPUs&apos; memory (%1 GB needed, %2 GB): a run of it could not have been measured. Check that it has the run&apos;s layout, recomputation and batch.</source>
        <translation>这个规划放不进其 GPU 的内存（需要 %1 GB，只有 %2 GB）：这样的运行不可能被测到。请检查它的布局、重算和批次是否与该次运行一致。</translation>
    </message>
    <message>
        <source>Measured step: &quot;%1&quot; is not a number; allowed: %2.</source>
        <translation>实测单步：“%1”不是数字；允许的值：%2。</translation>
    </message>
    <message>
        <source>Doubtful: %1.</source>
        <translation>存疑：%1。</translation>
    </message>
    <message>
        <source>Close this dialog, drag the plan&apos;s MFU slider to its left end (predicted) or type 0 in its box, and open it again.</source>
        <translation>请关闭此对话框，把计划的 MFU 滑块拖到最左端（预测），或在其输入框中填 0，然后重新打开。</translation>
    </message>
</context>
<context>
    <name>tally::ui::ComparePanel</name>
    <message>
        <source>Profiles to compare</source>
        <translation>要比较的配置</translation>
    </message>
    <message>
        <source>Check two to six profiles. The plan being edited is evaluated on each.</source>
        <translation>勾选两到六个硬件配置。正在编辑的计划会在每个配置上评估。</translation>
    </message>
    <message>
        <source>At most six profiles are compared at once: uncheck one first.</source>
        <translation>一次最多比较六个配置：请先取消勾选一个。</translation>
    </message>
    <message>
        <source>Compare: roofs</source>
        <translation>比较：roofline</translation>
    </message>
    <message>
        <source>Check at least two profiles to compare.</source>
        <translation>请至少勾选两个配置来比较。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Not evaluated on every profile:
%1</source>
        <translation>未在每个配置上评估：
%1</translation>
    </message>
    <message>
        <source>Days come from each part&apos;s predicted step (the performance model: its GEMM rate, memory bandwidth and network for the plan&apos;s layout), so parts with the same peak but more bandwidth, such as the H200 against the H100, can train faster. The roofs below show where bandwidth limits an operation.</source>
        <translation>天数来自每种硬件的预测单步时间（性能模型：按计划的并行布局计算其 GEMM 速率、内存带宽和网络），所以峰值相同但带宽更高的硬件（例如 H200 对比 H100）可以训练得更快。下面的屋顶显示带宽在哪里限制了运算。</translation>
    </message>
    <message>
        <source>Days come from each part&apos;s dense peak x the plan&apos;s assumed MFU (the lecture&apos;s estimate): memory bandwidth does not enter it, so parts with the same peak, such as the H100 and H200, take the same time. Set MFU to predicted to time each part with the performance model. The roofs below show where bandwidth limits an operation.</source>
        <translation>天数来自每种硬件的稠密峰值 × 计划假设的 MFU（讲座的估算）：内存带宽不参与计算，所以峰值相同的硬件（例如 H100 和 H200）耗时相同。把 MFU 设为 predicted 即可用性能模型为每种硬件计时。下面的屋顶显示带宽在哪里限制了运算。</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <source>Roofs of the compared profiles, %1 (the plan&apos;s compute dtype)</source>
        <translation>所比较配置的屋顶，%1（计划的计算数据类型）</translation>
    </message>
    <message>
        <source>Roofs of the compared profiles, %1 (%2: no %1 peak)</source>
        <translation>所比较配置的屋顶，%1（%2：没有 %1 峰值）</translation>
    </message>
    <message>
        <source>%1: dense %2 %3, %4, ridge %5 FLOP/byte</source>
        <translation>%1：稠密 %2 %3，%4，加速器强度 %5 FLOP/byte</translation>
    </message>
</context>
<context>
    <name>tally::ui::CompareTableModel</name>
    <message>
        <source>Dense %1 peak</source>
        <translation>稠密 %1 峰值</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <source>Ridge (%1)</source>
        <translation>加速器强度（%1）</translation>
    </message>
    <message>
        <source>Plan fits</source>
        <translation>计划能放下</translation>
    </message>
    <message>
        <source>Timed in</source>
        <translation>计时所用</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Dense peak (no 2:4 sparsity) of this dtype; — when the part has none.</source>
        <translation>该数据类型的稠密峰值（不含 2:4 稀疏）；硬件没有时显示 —。</translation>
    </message>
    <message>
        <source>Memory per GPU, GB = 10^9 bytes.</source>
        <translation>每 GPU 内存，GB = 10^9 字节。</translation>
    </message>
    <message>
        <source>Memory bandwidth, GB/s = 10^9 bytes per second.</source>
        <translation>内存带宽，GB/s = 每秒 10^9 字节。</translation>
    </message>
    <message>
        <source>Board power.</source>
        <translation>板卡功耗。</translation>
    </message>
    <message>
        <source>Ridge point = dense peak of the plan&apos;s compute dtype / bandwidth: operations of lower arithmetic intensity are memory-bound (Williams et al. 2009).</source>
        <translation>加速器强度（roofline 加速器强度）= 计划计算数据类型的稠密峰值 / 带宽：算术强度低于它的运算是内存受限的（Williams et al. 2009）。</translation>
    </message>
    <message>
        <source>The plan&apos;s memory per GPU is at most the profile&apos;s memory.</source>
        <translation>计划的每 GPU 内存不超过该配置的内存。</translation>
    </message>
    <message>
        <source>The dtype whose dense peak sets the time: the plan&apos;s compute dtype, or where the part has no peak for it the nearest it has (the same width first, then wider).</source>
        <translation>决定时间的数据类型：计划的计算数据类型；若硬件没有它的峰值，则取最接近的一种（先同宽度，再更宽）。</translation>
    </message>
    <message>
        <source>The profile&apos;s own price per GPU-hour if it has one (Workspace &gt; Profiles), else the plan&apos;s.</source>
        <translation>配置自带的每 GPU 小时价格（工作区 &gt; 配置），没有则用计划的价格。</translation>
    </message>
    <message>
        <source>Parameters, gradients, master weights, optimizer state and activations on one GPU (the Memory tab&apos;s breakdown).</source>
        <translation>单个 GPU 上的参数、梯度、主权重、优化器状态和激活值（“内存”页的分解）。</translation>
    </message>
    <message>
        <source>Memory - memory per GPU; negative when the plan does not fit.</source>
        <translation>内存 - 每 GPU 内存；计划放不下时为负。</translation>
    </message>
    <message>
        <source>Training FLOPs / (dense peak of the compute dtype x MFU x GPUs) / 86400.</source>
        <translation>训练 FLOPs / (计算数据类型的稠密峰值 × MFU × GPU 数) / 86400。</translation>
    </message>
    <message>
        <source>Days x 24 x GPUs.</source>
        <translation>天数 × 24 × GPU 数。</translation>
    </message>
    <message>
        <source>GPU-hours x price per GPU-hour (— without a price).</source>
        <translation>GPU 小时 × 每 GPU 小时价格（没有价格时为 —）。</translation>
    </message>
    <message>
        <source>not evaluated</source>
        <translation>未评估</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>%1 FLOP/byte</source>
        <translation>%1 FLOP/byte</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 (no %2)</source>
        <translation>%1（没有 %2）</translation>
    </message>
    <message>
        <source>%1 (profile)</source>
        <translation>%1（硬件配置）</translation>
    </message>
    <message>
        <source>%1 (plan)</source>
        <translation>%1（计划）</translation>
    </message>
    <message>
        <source>Not evaluated on %1: %2</source>
        <translation>未在 %1 上评估：%2</translation>
    </message>
    <message>
        <source>%1 has no dense %2 peak: the plan is timed at its %3 peak instead.</source>
        <translation>%1 没有稠密 %2 峰值：计划改按其 %3 峰值计时。</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>The lowest cost of the profiles the plan fits on.</source>
        <translation>在能放下该计划的硬件配置中成本最低。</translation>
    </message>
    <message>
        <source>The fewest days of the profiles the plan fits on.</source>
        <translation>在能放下该计划的硬件配置中天数最少。</translation>
    </message>
    <message>
        <source>The fewest GPU-hours of the profiles the plan fits on.</source>
        <translation>在能放下该计划的硬件配置中 GPU 小时最少。</translation>
    </message>
</context>
<context>
    <name>tally::ui::ConversionTableModel</name>
    <message>
        <source>%1 x %2</source>
        <translation>%1 x %2</translation>
    </message>
    <message>
        <source>%1 in %2: %3 (%4)
Round to nearest, ties to even.
Source: %5</source>
        <translation>%1 的 %2：%3（%4）
舍入到最近，平局取偶。
来源：%5</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Stored value</source>
        <translation>存储的值</translation>
    </message>
    <message>
        <source>Conversion</source>
        <translation>转换</translation>
    </message>
    <message>
        <source>Abs. error</source>
        <translation>绝对误差</translation>
    </message>
    <message>
        <source>Rel. error</source>
        <translation>相对误差</translation>
    </message>
    <message>
        <source>Element x scale</source>
        <translation>元素 × 缩放</translation>
    </message>
</context>
<context>
    <name>tally::ui::Export</name>
    <message>
        <source>Cannot encode %1 as PNG</source>
        <translation>无法将 %1 编码为 PNG</translation>
    </message>
    <message>
        <source>Exported from Tally</source>
        <translation>由 Tally 导出</translation>
    </message>
</context>
<context>
    <name>tally::ui::FigureTableModel</name>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
</context>
<context>
    <name>tally::ui::FileDialogs</name>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>%1 File</source>
        <translation>%1 文件</translation>
    </message>
</context>
<context>
    <name>tally::ui::FormatTableModel</name>
    <message>
        <source>%1 + %2 + %3</source>
        <translation>%1 + %2 + %3</translation>
    </message>
    <message>
        <source>%1 (in %2)</source>
        <translation>%1（在 %2 中）</translation>
    </message>
    <message>
        <source>inf</source>
        <translation>inf</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>saturates</source>
        <translation>饱和</translation>
    </message>
    <message>
        <source>%1 values, %2 scale</source>
        <translation>%1 个值，%2 缩放</translation>
    </message>
    <message>
        <source>%1: sign %2, exponent %3, mantissa %4 bits, bias %5
Source: %6</source>
        <translation>%1：符号 %2，指数 %3，尾数 %4 位，偏置 %5
来源：%6</translation>
    </message>
    <message>
        <source>sign + exponent + mantissa bits (block formats: one element)</source>
        <translation>符号 + 指数 + 尾数位（块格式：一个元素）</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>S + E + M</source>
        <translation>S + E + M</translation>
    </message>
    <message>
        <source>Bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Bits/value</source>
        <translation>位/值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Min normal</source>
        <translation>最小正规数</translation>
    </message>
    <message>
        <source>Min subnormal</source>
        <translation>最小次正规数</translation>
    </message>
    <message>
        <source>Epsilon</source>
        <translation>Epsilon</translation>
    </message>
    <message>
        <source>Specials</source>
        <translation>特殊值</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>块</translation>
    </message>
</context>
<context>
    <name>tally::ui::FormatsPanel</name>
    <message>
        <source>Value to convert</source>
        <translation>要转换的值</translation>
    </message>
    <message>
        <source>A number to store in each format (e.g. 0.1, 1e-8, 70000, 3.14159).</source>
        <translation>要存进每种格式的数（例如 0.1、1e-8、70000、3.14159）。</translation>
    </message>
    <message>
        <source>Convert the value</source>
        <translation>转换该值</translation>
    </message>
    <message>
        <source>Number format bit layouts</source>
        <translation>数值格式的位布局</translation>
    </message>
    <message>
        <source>Type a number</source>
        <translation>请输入一个数</translation>
    </message>
    <message>
        <source>%1 is out of range: larger than any double (about 1.8e308)</source>
        <translation>%1 超出范围：比任何 double 都大（约 1.8e308）</translation>
    </message>
    <message>
        <source>Not a number: %1</source>
        <translation>不是数字：%1</translation>
    </message>
    <message>
        <source>%1. The table shows %2.</source>
        <translation>%1。表中显示的是 %2。</translation>
    </message>
</context>
<context>
    <name>tally::ui::GpuEditor</name>
    <message>
        <source>The accelerator: its memory, bandwidth and dense peaks per dtype.</source>
        <translation>加速器：其内存、带宽和每种数据类型的稠密峰值。</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
</context>
<context>
    <name>tally::ui::HardwareListModel</name>
    <message>
        <source>%1 (custom)</source>
        <translation>%1（自定义）</translation>
    </message>
    <message>
        <source>%1 (measured)</source>
        <translation>%1（实测）</translation>
    </message>
    <message>
        <source>%1 (%2)
Memory %3 (%4), bandwidth %5
Dense bf16 peak %6, TDP %7</source>
        <translation>%1（%2）
内存 %3（%4），带宽 %5
稠密 bf16 峰值 %6，TDP %7</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>tally::ui::ImportLaunchDialog</name>
    <message>
        <source>Import run configuration: %1</source>
        <translation>导入运行配置：%1</translation>
    </message>
    <message>
        <source>Recognise from the file</source>
        <translation>根据文件识别</translation>
    </message>
    <message>
        <source>the current plan&apos;s model</source>
        <translation>当前计划的模型</translation>
    </message>
    <message>
        <source>A Hugging Face config.json for the model: DeepSpeed and accelerate configurations do not describe it, and it replaces what a Megatron-LM, NeMo or torchtitan file says.</source>
        <translation>模型的 Hugging Face config.json：DeepSpeed 和 accelerate 配置不描述模型，而且它会取代 Megatron-LM、NeMo 或 torchtitan 文件中的模型设置。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>The model&apos;s config.json</source>
        <translation>模型的 config.json</translation>
    </message>
    <message>
        <source>config.json (*.json);;All files (*)</source>
        <translation>config.json (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>from the file</source>
        <translation>来自文件</translation>
    </message>
    <message>
        <source>The world size, where the file leaves it to the launcher (torchtitan&apos;s data_parallel_shard_degree = -1).</source>
        <translation>world size（总进程数），用于文件把它留给启动器决定的情况（torchtitan 的 data_parallel_shard_degree = -1）。</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置项</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Plan field</source>
        <translation>计划字段</translation>
    </message>
    <message>
        <source>Apply to the plan</source>
        <translation>应用到计划</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Model config.json</source>
        <translation>模型 config.json</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Read as %1.</source>
        <translation>按 %1读取。</translation>
    </message>
    <message>
        <source>Not read: unknown to Tally (%1)</source>
        <translation>未读取：Tally 不认识（%1）</translation>
    </message>
    <message>
        <source>Assumed (%1)</source>
        <translation>假设值（%1）</translation>
    </message>
    <message>
        <source>Read into the plan (%1)</source>
        <translation>已读入计划（%1）</translation>
    </message>
    <message>
        <source>Ignored: no bearing on the plan (%1)</source>
        <translation>已忽略：与计划无关（%1）</translation>
    </message>
    <message>
        <source>Not imported: %1</source>
        <translation>未导入：%1</translation>
    </message>
    <message>
        <source>Import run configuration %1</source>
        <translation>导入运行配置 %1</translation>
    </message>
    <message>
        <source>the preset of the checkpoint it serves</source>
        <translation>所服务检查点对应的预设</translation>
    </message>
</context>
<context>
    <name>tally::ui::InferencePanel</name>
    <message>
        <source>Serving</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <source>Set %1 to %2</source>
        <translation>把 %1 设为 %2</translation>
    </message>
    <message>
        <source>Latency per token against throughput as the batch grows</source>
        <translation>随批次增大，每 token 延迟与吞吐量的关系</translation>
    </message>
    <message>
        <source>Batch fits</source>
        <translation>批次能放下</translation>
    </message>
    <message>
        <source>Does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Memory limit</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <source>This batch</source>
        <translation>此批次</translation>
    </message>
    <message>
        <source>Output tokens per second (whole deployment)</source>
        <translation>每秒输出 token 数（整个部署）</translation>
    </message>
    <message>
        <source>Milliseconds per output token</source>
        <translation>每个输出 token 的毫秒数</translation>
    </message>
    <message>
        <source>Largest batch that fits: %1 sequences
%2</source>
        <translation>能放下的最大批次：%1 个序列
%2</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Largest batch</source>
        <translation>最大批次</translation>
    </message>
    <message>
        <source>GB per GPU</source>
        <translation>每 GPU GB</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>%1 at %2: %3 (%4)</source>
        <translation>%1，位于 %2：%3（%4）</translation>
    </message>
    <message>
        <source>Latency against throughput</source>
        <translation>延迟与吞吐量</translation>
    </message>
    <message>
        <source>Serving memory per GPU</source>
        <translation>推理服务的每 GPU 内存</translation>
    </message>
    <message>
        <source>Batch %1: %2 per token, %3 output tokens/s, %4 per GPU (%5)
Step = max(GEMM FLOPs / peak, weights / bandwidth) + max(attention FLOPs / peak, KV cache / bandwidth) + tensor-parallel all-reduces
Throughput = replicas x batch x output tokens / (prefill + decode)
Source: Pope et al. 2022, sec. 3.1; roofline at achieved peaks</source>
        <translation>批次 %1：每 token %2，每秒 %3 个输出 token，每 GPU %4（%5）
单步 = max(GEMM FLOPs / 峰值, 权重 / 带宽) + max(注意力 FLOPs / 峰值, KV 缓存 / 带宽) + 张量并行 all-reduce
吞吐量 = 副本数 × 批次 × 输出 token 数 / (预填充 + 解码)
来源：Pope et al. 2022，第 3.1 节；按实际峰值的 roofline</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>能放下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Cannot serve this plan: %1</source>
        <translation>无法部署此计划：%1</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>sequences</source>
        <translation>个序列</translation>
    </message>
    <message>
        <source>Not shown: the deployment needs %1 per GPU of %2, so it cannot run at this batch. Lower the batch or the context, quantize, or add GPUs.
%3</source>
        <translation>未显示：该部署每 GPU 需要 %1，而只有 %2，所以无法以此批次运行。请降低批次或上下文长度、进行量化，或增加 GPU。
%3</translation>
    </message>
    <message>
        <source>Batch %1</source>
        <translation>批次 %1</translation>
    </message>
    <message>
        <source>Largest: %1</source>
        <translation>最大：%1</translation>
    </message>
    <message>
        <source>None fits</source>
        <translation>都放不下</translation>
    </message>
    <message>
        <source>Concurrency %1: time to first token %2, inter-token latency %3, %4 output tokens/s%5</source>
        <translation>并发数 %1：首 token 时间 %2，token 间延迟 %3，%4 输出 token/s%5</translation>
    </message>
    <message>
        <source> (does not fit)</source>
        <translation>（放不下）</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/s</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首 token 时间</translation>
    </message>
    <message>
        <source>Inter-token latency</source>
        <translation>token 间延迟</translation>
    </message>
    <message>
        <source>%1: no published figure</source>
        <translation>%1：没有已公布的数据</translation>
    </message>
    <message>
        <source>%1: ±%2% on %3 published figures (worst %4%, mean signed %5%)</source>
        <translation>%1：在 %3 个已公布数据上误差 ±%2%（最差 %4%，带符号平均 %5%）</translation>
    </message>
    <message>
        <source>continuous batching</source>
        <translation>连续批处理</translation>
    </message>
    <message>
        <source>static batches</source>
        <translation>静态批</translation>
    </message>
    <message>
        <source>Accuracy: no published %1 %2 run with %3 to compare with; these predictions are unchecked against measurements.</source>
        <translation>准确度：没有已公布的 %1 %2 %3运行可供比较；这些预测未经实测检验。</translation>
    </message>
    <message>
        <source>Accuracy on published %1 %2 runs with %3 (error = predicted / measured - 1):</source>
        <translation>在已公布的 %1 %2 %3运行上的准确度（误差 = 预测 / 实测 - 1）：</translation>
    </message>
    <message>
        <source>Hover a figure for its formula, the numbers in it and its source. Decode reads every weight and the whole KV cache each step (the cache once per query head where the spec&apos;s decode_attention says so); GB = 10^9 bytes.</source>
        <translation>悬停在数字上可查看其公式、代入的数值和来源。解码每步读取全部权重和整个 KV 缓存（计划的 decode_attention 如此设定时，缓存按每个查询头各读一次）；GB = 10^9 字节。</translation>
    </message>
    <message>
        <source> (the KV cache holds %1 sequences; the other requests wait %2 for admission)</source>
        <translation>（KV 缓存能容纳 %1 个序列；其余请求等待准入 %2）</translation>
    </message>
    <message>
        <source>Use tensor parallel %1</source>
        <translation>改用张量并行 %1</translation>
    </message>
    <message>
        <source> (the token budget keeps %1 sequences running; the other requests wait %2 for admission)</source>
        <translation>（token 预算可持续运行 %1 个序列；其余请求等待准入 %2）</translation>
    </message>
    <message>
        <source>%1 in flight</source>
        <translation>%1 个在途</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Copy as…</source>
        <translation>复制为…</translation>
    </message>
    <message>
        <source>Copy the serving plan as the command that starts its engine, with every figure the plan counts under the engine&apos;s own flag</source>
        <translation>把服务计划复制为启动其引擎的命令，计划计入的每个数都写成引擎自己的参数</translation>
    </message>
    <message>
        <source>The plan has an error; correct it first: %1</source>
        <translation>计划有错误，请先改正：%1</translation>
    </message>
    <message>
        <source>No plan is drawn.</source>
        <translation>没有绘出的计划。</translation>
    </message>
    <message>
        <source>The figures below are of a static batch of %1 (inference.batch); the headline and the continuous-batching rows are of concurrency %2.</source>
        <translation>下表的数字是静态批次 %1（inference.batch）的；标题行和连续批处理各行是并发 %2 的。</translation>
    </message>
    <message>
        <source>Clients 1-%1</source>
        <translation>客户端 1-%1</translation>
    </message>
    <message>
        <source>%1 clients</source>
        <translation>%1 个客户端</translation>
    </message>
    <message>
        <source>e.g. 10</source>
        <translation>例如 10</translation>
    </message>
    <message>
        <source>Requests per second the whole deployment must complete, each with the plan&apos;s prompt and output tokens</source>
        <translation>整个部署每秒必须完成的请求数，每个请求的提示与输出 token 数同计划</translation>
    </message>
    <message>
        <source>Find concurrency</source>
        <translation>求并发数</translation>
    </message>
    <message>
        <source>Set Concurrency to the fewest clients in flight per replica that complete this many requests per second (Little&apos;s law: clients = rate x time a request takes; as tally infer --request-rate)</source>
        <translation>把并发数设为每个副本上能完成这一每秒请求数的最少在途客户端数（利特尔法则：客户端数 = 速率 × 一个请求所需时间；同 tally infer --request-rate）</translation>
    </message>
    <message>
        <source>Requests/s to serve:</source>
        <translation>需服务的请求数/秒：</translation>
    </message>
    <message>
        <source>Requests/s to serve: got &quot;%1&quot;; a number of requests per second &gt; 0</source>
        <translation>需服务的请求数/秒：得到“%1”；应为大于 0 的每秒请求数</translation>
    </message>
    <message>
        <source>Requests/s to serve: got %1; at most %2 requests/s on this deployment, with as many sequences running as its KV cache and token budget allow: more replicas or GPUs serve more</source>
        <translation>需服务的请求数/秒：得到 %1；此部署最多 %2 个请求/秒（运行的序列数已达其 KV 缓存和 token 预算所允许的上限）：更多副本或 GPU 才能服务更多</translation>
    </message>
    <message>
        <source>%1 clients in flight per replica complete %2 requests/s (asked %3): time to first token %4, inter-token latency %5</source>
        <translation>每个副本 %1 个在途客户端完成 %2 个请求/秒（要求 %3）：首 token 时间 %4，token 间延迟 %5</translation>
    </message>
    <message>
        <source>1 client in flight per replica completes %1 requests/s (asked %2): time to first token %3, inter-token latency %4</source>
        <translation>每个副本 1 个在途客户端完成 %1 个请求/秒（要求 %2）：首 token 时间 %3，token 间延迟 %4</translation>
    </message>
    <message>
        <source>1 client</source>
        <translation>1 个客户端</translation>
    </message>
    <message>
        <source>Requests/s to serve: none can be served: the engine&apos;s KV cache holds no sequence at the full context, so no request is admitted (more GPUs, a narrower weight dtype or a larger engine share of the memory, inference.memory_fraction, leave it room)</source>
        <translation>需服务的请求数/秒：无法提供任何服务：引擎的 KV 缓存在完整上下文下一个序列都放不下，所以没有请求被接纳（更多 GPU、更窄的权重数据类型，或给引擎更大的内存份额 inference.memory_fraction，都能留出空间）</translation>
    </message>
</context>
<context>
    <name>tally::ui::LaunchConfigDialog</name>
    <message>
        <source>%1 of the plan</source>
        <translation>计划的 %1</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save the launch configuration</source>
        <translation>保存启动配置</translation>
    </message>
    <message>
        <source>Tally</source>
        <translation>Tally</translation>
    </message>
    <message>
        <source>Copied to the clipboard. Every setting the plan runs with is written in the framework&apos;s own names; a setting it cannot express is refused, never left out, and one the framework fixes otherwise is said below and in the file&apos;s header.</source>
        <translation>已复制到剪贴板。计划运行所用的每个设置都以框架自己的名称写出；框架无法表达的设置会被拒绝，绝不遗漏；框架以其他方式固定的设置在下方和文件头中说明。</translation>
    </message>
    <message>
        <source>Where %1 will run the plan otherwise:</source>
        <translation>%1 将以不同于计划的方式运行之处：</translation>
    </message>
    <message>
        <source>%1 already exists. Replace it?</source>
        <translation>%1 已存在。要替换它吗？</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 等，另有 %2 个</translation>
    </message>
    <message>
        <source>%1 is a %2 file with %3 settings Tally does not write (%4). Written over, it holds the plan&apos;s settings only, and those are lost: save under another name and copy the plan&apos;s settings into it. Replace it anyway?</source>
        <translation>%1 是一个%2文件，其中有 %3 个 Tally 不写出的设置（%4）。覆盖后它只含计划的设置，这些设置将丢失：请另存为其他名称，再把计划的设置复制进去。仍要替换吗？</translation>
    </message>
</context>
<context>
    <name>tally::ui::LayoutTableModel</name>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>The plan&apos;s own layout.
</source>
        <translation>计划自己的并行布局。
</translation>
    </message>
    <message>
        <source>tp %1 x pp %2 x dp %3, micro-batch %4: one step %5 predicted, %6 per GPU, MFU %7. Double-click or Apply to plan it.</source>
        <translation>tp %1 x pp %2 x dp %3，微批次 %4：预测单步 %5，每 GPU %6，MFU %7。双击或点“应用”即可采用。</translation>
    </message>
    <message>
        <source>Virtual pipeline stages per GPU (interleaved 1F1B)</source>
        <translation>每个 GPU 上的虚拟流水线阶段数（交错式 1F1B）</translation>
    </message>
    <message>
        <source>Data-parallel GPUs the routed experts are spread over</source>
        <translation>路由专家分布到的数据并行 GPU 数</translation>
    </message>
    <message>
        <source>One optimizer step, predicted by the performance model</source>
        <translation>一个优化器步，由性能模型预测</translation>
    </message>
    <message>
        <source>Memory per GPU (GB = 1e9 bytes) on the most loaded GPU</source>
        <translation>负载最重的 GPU 上的每 GPU 内存（GB = 1e9 字节）</translation>
    </message>
    <message>
        <source>Ranked by the predicted step time</source>
        <translation>按预测的单步时间排序</translation>
    </message>
    <message>
        <source>Ranked by the run&apos;s cost: GPUs x step time x steps x price (GPU-hours without a price)</source>
        <translation>按运行成本排序：GPU 数 × 单步时间 × 步数 × 价格（无价格时为 GPU 小时）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>SP</source>
        <translation>SP</translation>
    </message>
    <message>
        <source>Interleave</source>
        <translation>交错</translation>
    </message>
    <message>
        <source>EP</source>
        <translation>EP</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Memory/GPU</source>
        <translation>内存/GPU</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Step (ranked)</source>
        <translation>单步（排序依据）</translation>
    </message>
    <message>
        <source>Run cost</source>
        <translation>运行成本</translation>
    </message>
    <message>
        <source>Run GPU-hours</source>
        <translation>运行 GPU 小时</translation>
    </message>
    <message>
        <source>Data-parallel GPUs: cluster.gpus / (tp x pp x cp)</source>
        <translation>数据并行 GPU 数：cluster.gpus / (tp x pp x cp)</translation>
    </message>
    <message>
        <source>GPUs each sequence is split over (ring attention)</source>
        <translation>每个序列切分到的 GPU 数（ring attention）</translation>
    </message>
    <message>
        <source>CP</source>
        <translation>CP</translation>
    </message>
</context>
<context>
    <name>tally::ui::LayoutsPanel</name>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Rank layouts by</source>
        <translation>布局排序依据</translation>
    </message>
    <message>
        <source>Step time: the predicted optimizer step. Cost: GPUs x step time x steps x price per GPU-hour (GPU-hours when there is no price).</source>
        <translation>单步时间：预测的一个优化器步。成本：GPU 数 × 单步时间 × 步数 × 每 GPU 小时价格（无价格时为 GPU 小时）。</translation>
    </message>
    <message>
        <source>Put the selected layout into the plan (undoable).</source>
        <translation>把选中的布局放进计划（可撤销）。</translation>
    </message>
    <message>
        <source>Rank by</source>
        <translation>排序依据</translation>
    </message>
    <message>
        <source>Searched in %1 ms</source>
        <translation>搜索用时 %1 ms</translation>
    </message>
    <message>
        <source>The search failed: %1</source>
        <translation>搜索失败：%1</translation>
    </message>
    <message>
        <source>None of the %1 layouts of this model on %2 GPUs fits in memory.</source>
        <translation>此模型在 %2 个 GPU 上的 %1 种布局都放不进内存。</translation>
    </message>
    <message>
        <source>%1 layouts of this model on %2 GPUs, %3 fit in memory.</source>
        <translation>此模型在 %2 个 GPU 上有 %1 种布局，其中 %3 种能放进内存。</translation>
    </message>
    <message>
        <source>The plan&apos;s own layout (tp %1 x pp %2) does not suit %3 GPUs: apply one of these.</source>
        <translation>计划自己的布局（tp %1 x pp %2）不适合 %3 个 GPU：请应用其中一种。</translation>
    </message>
    <message>
        <source>The plan&apos;s layout ranks %1.</source>
        <translation>计划的布局排名第 %1。</translation>
    </message>
    <message>
        <source>The plan&apos;s layout is not among the best %1.</source>
        <translation>计划的布局不在最好的 %1 种之中。</translation>
    </message>
    <message>
        <source>The plan&apos;s MFU is assumed (%1), so Apply changes the predicted step and the memory, not the days or the cost; set MFU to predicted to see them follow the layout.</source>
        <translation>计划的 MFU 是假设值（%1），所以“应用”会改变预测的单步时间和内存，但不改变天数和成本；把 MFU 设为 predicted 才能看到它们随布局变化。</translation>
    </message>
    <message>
        <source>Apply layout tp %1, pp %2, dp %3, micro-batch %4</source>
        <translation>应用布局 tp %1，pp %2，dp %3，微批次 %4</translation>
    </message>
    <message>
        <source>Copy as…</source>
        <translation>复制为…</translation>
    </message>
    <message>
        <source>Copy the plan with the selected layout as Megatron-LM arguments, a torchtitan TOML, a DeepSpeed JSON, …</source>
        <translation>把采用选中布局的计划复制为 Megatron-LM 参数、torchtitan TOML、DeepSpeed JSON 等…</translation>
    </message>
    <message>
        <source>Select a layout of the current plan first.</source>
        <translation>请先选择当前计划的一种布局。</translation>
    </message>
    <message>
        <source>Every valid layout of this model, data and cluster (tensor, pipeline, context and data parallel sizes, micro-batch, ZeRO stage, recomputation, sequence parallelism, interleaving, expert parallelism; pipeline stages the layers do not divide evenly hold them as the engines spread them) with the global batch kept, evaluated by the performance model; those that fit in memory, best first. The plan&apos;s own layout is in bold and marked ◀ when listed. Double-click a row or select it and Apply to plan it.</source>
        <translation>此模型、数据和集群的每种有效布局（张量、流水线、上下文和数据并行规模，微批次，ZeRO 阶段，重计算，序列并行，交错，专家并行；层数不能被流水线级数整除时，按各引擎的方式分配到各级），全局批次保持不变，由性能模型评估；列出能放进内存的布局，最好的在前。计划自己的布局若在列表中则以粗体显示并标上 ◀。双击某行，或选中后点“应用”即可采用。</translation>
    </message>
    <message>
        <source>tp %1, pp %2, cp %3, dp %4, micro-batch %5, ZeRO-%6%7: a layout of “%8”</source>
        <translation>tp %1、pp %2、cp %3、dp %4、微批次 %5、ZeRO-%6%7：“%8”的一种并行布局</translation>
    </message>
    <message>
        <source>, sequence parallel</source>
        <translation>、序列并行</translation>
    </message>
</context>
<context>
    <name>tally::ui::MainWindow</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Time and cost</source>
        <translation>时间与成本</translation>
    </message>
    <message>
        <source>Layouts</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>Number formats</source>
        <translation>数值格式</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Compute in %1</source>
        <translation>以 %1 计算</translation>
    </message>
    <message>
        <source>Not taken: %1</source>
        <translation>未采用：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>No chart named %1</source>
        <translation>没有名为 %1 的图表</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New plan</source>
        <translation>新建计划(&amp;N)</translation>
    </message>
    <message>
        <source>Start again from the plan Tally opens on (Llama 3 70B on 1024 H100); the lecture&apos;s plans are under Examples.</source>
        <translation>从 Tally 打开时的计划（1024 个 H100 上的 Llama 3 70B）重新开始；讲座中的计划在“示例”里。</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>示例(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save to a JSON file</source>
        <translation>保存为 JSON 文件(&amp;S)</translation>
    </message>
    <message>
        <source>Write the plan to its JSON file (tally plan PLAN.json reads it). Saved plans &gt; Save current plan in the workspace keeps it in the workspace instead.</source>
        <translation>把计划写入它的 JSON 文件（tally plan PLAN.json 可读取）。若要保存在工作区中，请用“已保存的计划 &gt; 在工作区保存当前计划”。</translation>
    </message>
    <message>
        <source>Save to a JSON file &amp;as…</source>
        <translation>另存为 JSON 文件(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>The desktop app&apos;s guide (docs/desktop-app.md): every panel, editing, files, the probe and the workspace.</source>
        <translation>桌面应用指南（docs/desktop-app.md）：每个面板、编辑、文件、探测和工作区。</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>The guide is docs/desktop-app.md in Tally&apos;s source folder (with docs/planner.md for every formula and docs/serving.md for serving).</source>
        <translation>指南是 Tally 源码目录中的 docs/desktop-app.md（每个公式见 docs/planner.md，推理服务见 docs/serving.md）。</translation>
    </message>
    <message>
        <source>The guide is %1 (no program here opens it).</source>
        <translation>指南是 %1（这里没有能打开它的程序）。</translation>
    </message>
    <message>
        <source>The lecture&apos;s &amp;questions</source>
        <translation>讲座中的问题(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;About Tally</source>
        <translation>关于 Tally(&amp;A)</translation>
    </message>
    <message>
        <source>About Tally</source>
        <translation>关于 Tally</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Tally&lt;/b&gt; plans the resources of training a large language model: memory per GPU, FLOPs, time, cost and the roofline.&lt;/p&gt;&lt;p&gt;Every figure&apos;s tooltip shows its formula, the numbers in it and its source. The command line (&lt;code&gt;tally plan SPEC.json&lt;/code&gt;) reads the plans this window saves.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Tally&lt;/b&gt; 规划训练大语言模型所需的资源：每 GPU 内存、FLOPs、时间、成本和 roofline。&lt;/p&gt;&lt;p&gt;每个数字的提示都会显示它的公式、代入的数值和来源。命令行（&lt;code&gt;tally plan SPEC.json&lt;/code&gt;）可以读取本窗口保存的计划。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 as PNG…</source>
        <translation>%1 导出为 PNG…</translation>
    </message>
    <message>
        <source>%1 as SVG…</source>
        <translation>%1 导出为 SVG…</translation>
    </message>
    <message>
        <source>Plan as CSV…</source>
        <translation>计划导出为 CSV…</translation>
    </message>
    <message>
        <source>Plan as Markdown report…</source>
        <translation>计划导出为 Markdown 报告…</translation>
    </message>
    <message>
        <source>Tally</source>
        <translation>Tally</translation>
    </message>
    <message>
        <source>CS336 lecture 2</source>
        <translation>CS336 第 2 讲</translation>
    </message>
    <message>
        <source>Training and serving plans</source>
        <translation>训练和推理服务计划</translation>
    </message>
    <message>
        <source>Opens resources/%1 as a new, unsaved plan</source>
        <translation>把 resources/%1 作为新的未保存计划打开</translation>
    </message>
    <message>
        <source>The plan &quot;%1&quot; has changes that are not saved to a file.</source>
        <translation>计划“%1”有尚未保存到文件的更改。</translation>
    </message>
    <message>
        <source>Save them before the plan is replaced?</source>
        <translation>在替换计划之前保存它们吗？</translation>
    </message>
    <message>
        <source>Open a plan</source>
        <translation>打开计划</translation>
    </message>
    <message>
        <source>Plans (*.json);;All files (*)</source>
        <translation>计划 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Saved the plan to %1</source>
        <translation>已把计划保存到 %1</translation>
    </message>
    <message>
        <source>Save the plan to a JSON file</source>
        <translation>把计划保存为 JSON 文件</translation>
    </message>
    <message>
        <source>Plans (*.json)</source>
        <translation>计划 (*.json)</translation>
    </message>
    <message>
        <source>Export the plan as a Markdown report</source>
        <translation>把计划导出为 Markdown 报告</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Export the plan as CSV</source>
        <translation>把计划导出为 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>导出 %1</translation>
    </message>
    <message>
        <source>SVG (*.svg)</source>
        <translation>SVG (*.svg)</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Untitled plan</source>
        <translation>未命名计划</translation>
    </message>
    <message>
        <source>%1[*] — Tally</source>
        <translation>%1[*] — Tally</translation>
    </message>
    <message>
        <source>Compute in %1 instead</source>
        <translation>改为以 %1 计算</translation>
    </message>
    <message>
        <source>Not drawn: %1</source>
        <translation>未绘制：%1</translation>
    </message>
    <message>
        <source>Drag a slider or type a value; every chart follows. Hover a figure to see how it is computed.</source>
        <translation>拖动滑块或输入数值，所有图表都会随之更新。悬停在数字上可查看它的计算方法。</translation>
    </message>
    <message>
        <source>%1
Close anyway?</source>
        <translation>%1
仍然关闭吗？</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>硬件配置</translation>
    </message>
    <message>
        <source>Saved plans</source>
        <translation>已保存的计划</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>&amp;Import run configuration…</source>
        <translation>导入运行配置(&amp;I)…</translation>
    </message>
    <message>
        <source>Read a Megatron-LM command line or log, NeMo overrides, a torchtitan TOML, a DeepSpeed JSON or an accelerate YAML into the plan, with a preview first.</source>
        <translation>把 Megatron-LM 命令行或日志、NeMo 覆盖参数、torchtitan TOML、DeepSpeed JSON 或 accelerate YAML 读入计划，先显示预览。</translation>
    </message>
    <message>
        <source>&amp;Copy plan as</source>
        <translation>复制计划为(&amp;C)</translation>
    </message>
    <message>
        <source>The plan has an error (%1); fix it before copying it as a launch configuration.</source>
        <translation>计划有错误（%1）；请先修正，再复制为启动配置。</translation>
    </message>
    <message>
        <source>Import a run configuration</source>
        <translation>导入运行配置</translation>
    </message>
    <message>
        <source>Launch configurations (*.sh *.txt *.log *.toml *.json *.yaml *.yml);;All files (*)</source>
        <translation>启动配置 (*.sh *.txt *.log *.toml *.json *.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Training not planned: %1. The Inference panel and the headline show the serving plan.</source>
        <translation>未规划训练：%1。“推理”面板和标题数字显示推理服务计划。</translation>
    </message>
    <message>
        <source>%1. The Layouts panel lists the layouts that suit %2 GPUs.</source>
        <translation>%1。“并行布局”面板列出适合 %2 个 GPU 的布局。</translation>
    </message>
    <message>
        <source>Not autosaved: another Tally window keeps the autosave. Save this plan to keep it.</source>
        <translation>未自动保存：另一个 Tally 窗口正在使用自动保存。请保存此计划以免丢失。</translation>
    </message>
    <message>
        <source>Save them before the window closes?</source>
        <translation>关闭窗口前保存这些更改吗？</translation>
    </message>
    <message>
        <source>%1 was changed by another program since Tally opened or saved it.</source>
        <translation>自 Tally 打开或保存 %1 以来，它已被另一个程序修改。</translation>
    </message>
    <message>
        <source>Saving writes this plan over those changes. Save it to another file to keep both.</source>
        <translation>保存会用此计划覆盖那些修改。另存为其他文件可以两者都保留。</translation>
    </message>
    <message>
        <source>&amp;Overwrite the file</source>
        <translation>覆盖该文件(&amp;O)</translation>
    </message>
    <message>
        <source>Save to &amp;another file…</source>
        <translation>保存到另一个文件(&amp;A)…</translation>
    </message>
    <message>
        <source>Not autosaved: save this plan to a file to keep it (%1)</source>
        <translation>未自动保存：请把这个计划保存到文件以免丢失（%1）</translation>
    </message>
    <message>
        <source>Save them before %1 is opened?</source>
        <translation>在打开 %1 之前保存这些修改吗？</translation>
    </message>
    <message>
        <source>Kept the plan of the last session; %1 was not opened</source>
        <translation>保留了上次会话的计划；未打开 %1</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>No plan file opened or saved yet</source>
        <translation>尚未打开或保存过计划文件</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>%1 (not found)</source>
        <translation>%1（未找到）</translation>
    </message>
</context>
<context>
    <name>tally::ui::MeasuredProfileDialog</name>
    <message>
        <source>%1, probe run #%2</source>
        <translation>%1，探测运行 #%2</translation>
    </message>
    <message>
        <source>%1, probed</source>
        <translation>%1，已探测</translation>
    </message>
    <message>
        <source>Make a measured hardware profile</source>
        <translation>创建实测硬件配置</translation>
    </message>
    <message>
        <source>None: only what the run measured</source>
        <translation>无：只用本次运行测得的数据</translation>
    </message>
    <message>
        <source>Base profile</source>
        <translation>基础配置</translation>
    </message>
    <message>
        <source>Profile id</source>
        <translation>配置 id</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>%1 peak %2</source>
        <translation>%1 峰值 %2</translation>
    </message>
    <message>
        <source>memory bandwidth %1 (%2)</source>
        <translation>内存带宽 %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>the times of %n GEMM shape(s)</source>
        <translation>
            <numerusform>%n 种 GEMM 形状的时间</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 measured no validated matmul, memory bandwidth or GEMM shape, so a profile cannot be made from it.</source>
        <translation>运行 %1 没有测到经过验证的 matmul、内存带宽或 GEMM 形状，因此无法据此创建配置。</translation>
    </message>
    <message>
        <source>From run %1: %2. These replace the base profile&apos;s figures; everything else (memory size, power, interconnect, the other dtypes) comes from the base.</source>
        <translation>来自运行 %1：%2。这些数据替换基础配置中的对应值；其余一切（内存大小、功耗、互连、其他数据类型）都来自基础配置。</translation>
    </message>
    <message>
        <source>Base profile:</source>
        <translation>基础配置：</translation>
    </message>
    <message>
        <source>Id:</source>
        <translation>Id：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Make profile</source>
        <translation>创建配置</translation>
    </message>
</context>
<context>
    <name>tally::ui::MemoryPanel</name>
    <message>
        <source>Params</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Grads</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Master</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Memory per GPU by ZeRO stage</source>
        <translation>按 ZeRO 阶段的每 GPU 内存</translation>
    </message>
    <message>
        <source>ZeRO-0</source>
        <translation>ZeRO-0</translation>
    </message>
    <message>
        <source>ZeRO-1</source>
        <translation>ZeRO-1</translation>
    </message>
    <message>
        <source>ZeRO-2</source>
        <translation>ZeRO-2</translation>
    </message>
    <message>
        <source>ZeRO-3</source>
        <translation>ZeRO-3</translation>
    </message>
    <message>
        <source>GB per GPU</source>
        <translation>每 GPU GB</translation>
    </message>
    <message>
        <source>%1 with ZeRO-%2: %3 (%4)</source>
        <translation>%1，ZeRO-%2：%3（%4）</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Memory against</source>
        <translation>内存随之变化的量</translation>
    </message>
    <message>
        <source>Memory per GPU against a variable</source>
        <translation>每 GPU 内存随某个变量的变化</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Model state</source>
        <translation>模型状态</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>This plan</source>
        <translation>本计划</translation>
    </message>
    <message>
        <source>%1 at %2 = %3: %4 (%5)
The plan evaluated again with only %2 changed; total = params + grads + master + optimizer + activations.
Source: Rajbhandari et al. 2020 (ZeRO); Korthikanti et al. 2022 (activations)</source>
        <translation>%1 在 %2 = %3 时：%4（%5）
只改变 %2 后重新评估计划；总计 = 参数 + 梯度 + 主权重 + 优化器状态 + 激活值。
来源：Rajbhandari et al. 2020 (ZeRO)；Korthikanti et al. 2022（激活值）</translation>
    </message>
    <message>
        <source>GB = 10^9 bytes, as datasheets count. GiB = 2^30 bytes, as nvidia-smi shows. The figures are those of the most loaded GPU.</source>
        <translation>GB = 10^9 字节，与数据手册的算法相同。GiB = 2^30 字节，与 nvidia-smi 显示的相同。数字取负载最重的 GPU。</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>Memory against a variable</source>
        <translation>内存随变量的变化</translation>
    </message>
    <message>
        <source>%1 parameters: the largest model that fits (model state only)</source>
        <translation>%1 个参数：能放下的最大模型（仅模型状态）</translation>
    </message>
    <message>
        <source>%1
Parameters, gradients, master weights and optimizer state of the plan&apos;s recipe, sharded as the plan shards them; activations are left out (CS336 lecture 2, question 2; tally solve max-params).</source>
        <translation>%1
按计划配方和计划的切分方式计算的参数、梯度、主权重和优化器状态；不计激活值（CS336 第 2 讲，问题 2；tally solve max-params）。</translation>
    </message>
    <message>
        <source>ZeRO-%1</source>
        <translation>ZeRO-%1</translation>
    </message>
    <message>
        <source>Capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>Micro-batch (sequences per GPU)</source>
        <translation>微批次（每 GPU 的序列数）</translation>
    </message>
    <message>
        <source>Sequence length (tokens)</source>
        <translation>序列长度（token）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>ZeRO-%1&lt;br&gt;(n/a)</source>
        <translation>ZeRO-%1&lt;br&gt;（不适用）</translation>
    </message>
    <message>
        <source>ZeRO-%1&lt;br&gt;(plan)</source>
        <translation>ZeRO-%1&lt;br&gt;（计划）</translation>
    </message>
    <message>
        <source>Buffers</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>ZeRO-%1&lt;br&gt;%2 GB ↑</source>
        <translation>ZeRO-%1&lt;br&gt;%2 GB ↑</translation>
    </message>
    <message>
        <source>Memory per GPU against a variable (axis cut at %1 GB)</source>
        <translation>每 GPU 内存随某个变量的变化（坐标轴截断于 %1 GB）</translation>
    </message>
    <message>
        <source>Pipeline: the first stage holds %1 micro-batches in flight = min(pp %2, micro-batches a step %3) (Narayanan et al. 2021, sec. 2.2.1)</source>
        <translation>流水线：第一个阶段同时保有 %1 个在途微批次 = min(pp %2, 每步微批次数 %3)（Narayanan et al. 2021，第 2.2.1 节）</translation>
    </message>
</context>
<context>
    <name>tally::ui::MemoryTableModel</name>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>%1: %2 of %3 (the catalog&apos;s figure; GB = 1e9 bytes)</source>
        <translation>%1：%3 中的 %2（目录中的数字；GB = 1e9 字节）</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Short by</source>
        <translation>差额</translation>
    </message>
    <message>
        <source>capacity - total = %1 - %2</source>
        <translation>容量 - 总计 = %1 - %2</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>GB</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>of capacity</source>
        <translation>占容量</translation>
    </message>
    <message>
        <source>Gigabytes: 10^9 bytes (datasheets)</source>
        <translation>吉字节：10^9 字节（数据手册）</translation>
    </message>
    <message>
        <source>Gibibytes: 2^30 bytes (what nvidia-smi shows)</source>
        <translation>吉比字节：2^30 字节（nvidia-smi 显示的）</translation>
    </message>
    <message>
        <source>Pipeline buffers</source>
        <translation>流水线缓冲区</translation>
    </message>
    <message>
        <source>ZeRO-3 gather</source>
        <translation>ZeRO-3 聚集</translation>
    </message>
</context>
<context>
    <name>tally::ui::NumberEditor</name>
    <message>
        <source>%1 is out of range: larger than any number Tally can hold (about 1.8e308)</source>
        <translation>%1 超出范围：比 Tally 能表示的任何数都大（约 1.8e308）</translation>
    </message>
    <message>
        <source>%1 is too large: a whole number here is at most 2^53 = %2</source>
        <translation>%1 太大：这里的整数最多为 2^53 = %2</translation>
    </message>
    <message>
        <source>a number (such as 4096, 0.5, 1e12 or 15T) or %1</source>
        <translation>一个数（如 4096、0.5、1e12 或 15T）或 %1</translation>
    </message>
    <message>
        <source>a number (such as 4096, 0.5, 1e12 or 15T)</source>
        <translation>一个数（如 4096、0.5、1e12 或 15T）</translation>
    </message>
    <message>
        <source>Empty: %1</source>
        <translation>为空：%1</translation>
    </message>
    <message>
        <source>Not a number: %1; %2</source>
        <translation>不是数：%1；%2</translation>
    </message>
    <message>
        <source>%1 is below %2, the least this field takes (up to %3)</source>
        <translation>%1 小于 %2，这是此字段可取的最小值（最大为 %3）</translation>
    </message>
    <message>
        <source>%1 is above %2, the most this field takes (from %3)</source>
        <translation>%1 大于 %2，这是此字段可取的最大值（最小为 %3）</translation>
    </message>
    <message>
        <source>%1 is not a whole number: this field counts whole things (such as 2 or 4096)</source>
        <translation>%1 不是整数：此字段计数的是整数个事物（例如 2 或 4096）</translation>
    </message>
    <message>
        <source>%1 is not a whole number: this field takes whole numbers from %2 to %3</source>
        <translation>%1 不是整数：此字段接受 %2 到 %3 的整数</translation>
    </message>
    <message>
        <source>a whole number (such as 2, 4096 or 15T) or %1</source>
        <translation>一个整数（如 2、4096 或 15T）或 %1</translation>
    </message>
    <message>
        <source>a whole number (such as 2, 4096 or 15T)</source>
        <translation>一个整数（如 2、4096 或 15T）</translation>
    </message>
</context>
<context>
    <name>tally::ui::PlanDocument</name>
    <message>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <source>Add operation %1</source>
        <translation>添加运算 %1</translation>
    </message>
    <message>
        <source>Remove operation %1</source>
        <translation>删除运算 %1</translation>
    </message>
    <message>
        <source>%1 is not a plan Tally can read: %2</source>
        <translation>%1 不是 Tally 能读取的计划：%2</translation>
    </message>
    <message>
        <source>The plan is not saved while a field is rejected: %1</source>
        <translation>有字段被拒绝时不保存计划：%1</translation>
    </message>
    <message>
        <source>The report is of a training plan, and this serving spec has none (%1). Complete or correct its training part to plan training, or use tally infer for the serving plan.</source>
        <translation>报告针对的是训练计划，而此推理服务计划没有训练部分（%1）。请补全或改正其训练部分以规划训练，或用 tally infer 查看推理服务计划。</translation>
    </message>
    <message>
        <source>The plan has an error (%1); the figures shown are of the last plan drawn, not this one. Correct it to export its report.</source>
        <translation>计划有错误（%1）；显示的数字属于上一次画出的计划，而不是这一个。请先改正，再导出它的报告。</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProbePanel</name>
    <message>
        <source>Quick (small sizes, few samples)</source>
        <translation>快速（小尺寸，少量样本）</translation>
    </message>
    <message>
        <source>Only this plan&apos;s GEMMs</source>
        <translation>只测本计划的 GEMM</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Show on roofline</source>
        <translation>在 roofline 上显示</translation>
    </message>
    <message>
        <source>Make hardware profile…</source>
        <translation>创建硬件配置…</translation>
    </message>
    <message>
        <source>Run on the CPU instead</source>
        <translation>改在 CPU 上运行</translation>
    </message>
    <message>
        <source>Time exactly the GEMMs the step-time model times for the current plan (forward, data and weight gradients at their tensor-parallel shapes), as tally probe --plan does. A profile made from the run times the plan with these measurements.</source>
        <translation>精确计时单步时间模型为当前计划计时的那些 GEMM（前向、数据梯度和权重梯度，按张量并行后的形状），与 tally probe --plan 相同。由此次运行创建的配置会用这些实测值为计划计时。</translation>
    </message>
    <message>
        <source>CUDA (NVIDIA GPU)</source>
        <translation>CUDA（NVIDIA GPU）</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>The GPU through CUDA: cuBLASLt matmuls, device memory, the lecture&apos;s kernels, host-device copies</source>
        <translation>通过 CUDA 测 GPU：cuBLASLt matmul、设备内存、讲座中的 kernel、主机与设备间拷贝</translation>
    </message>
    <message>
        <source>This machine&apos;s cores and memory: STREAM, FMA peak, BLAS matmuls, the lecture&apos;s operations</source>
        <translation>本机的核心和内存：STREAM、FMA 峰值、BLAS matmul、讲座中的运算</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>SSH host</source>
        <translation>SSH 主机</translation>
    </message>
    <message>
        <source>Run tally-probe on another machine through ssh (which must log in without a password prompt); the results stream back and are saved here</source>
        <translation>通过 ssh 在另一台机器上运行 tally-probe（必须无需输入密码即可登录）；结果会传回并保存在这里</translation>
    </message>
    <message>
        <source>Where the probe runs</source>
        <translation>探测在哪里运行</translation>
    </message>
    <message>
        <source>host or user@host</source>
        <translation>host 或 user@host</translation>
    </message>
    <message>
        <source>tally-probe (on the host&apos;s PATH)</source>
        <translation>tally-probe（在主机的 PATH 上）</translation>
    </message>
    <message>
        <source>tally-probe on the host</source>
        <translation>主机上的 tally-probe</translation>
    </message>
    <message>
        <source>Tests</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>%v of %m tests</source>
        <translation>%v / %m 项测试</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Past probe runs</source>
        <translation>过去的探测运行</translation>
    </message>
    <message>
        <source>No run yet: pick a backend and the tests, then Start.</source>
        <translation>还没有运行：选好后端和测试，然后点“开始”。</translation>
    </message>
    <message>
        <source>Run the probe</source>
        <translation>运行探测</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>运行于：</translation>
    </message>
    <message>
        <source>Backend:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <source>Tests:</source>
        <translation>测试：</translation>
    </message>
    <message>
        <source>Past runs</source>
        <translation>过去的运行</translation>
    </message>
    <message>
        <source>Fractions of:</source>
        <translation>比例基准：</translation>
    </message>
    <message>
        <source>Type the SSH host the probe runs on.</source>
        <translation>请输入运行探测的 SSH 主机。</translation>
    </message>
    <message>
        <source>Listing was cancelled.</source>
        <translation>列出测试已取消。</translation>
    </message>
    <message>
        <source>Listing cancelled; Start runs every %1 test.</source>
        <translation>列出测试已取消；“开始”会运行全部 %1 测试。</translation>
    </message>
    <message>
        <source>tally-probe has no CUDA device to use here (no NVIDIA GPU, or built without CUDA), so the CPU backend is selected. Pick CUDA on a machine with an NVIDIA GPU.</source>
        <translation>tally-probe 在这里没有可用的 CUDA 设备（没有 NVIDIA GPU，或构建时未启用 CUDA），因此选择了 CPU 后端。请在有 NVIDIA GPU 的机器上选择 CUDA。</translation>
    </message>
    <message>
        <source>The %1 backend cannot run here (%2), so the CPU backend is selected. Pick %1 on a machine that has it.</source>
        <translation>%1 后端无法在这里运行（%2），因此选择了 CPU 后端。请在具备它的机器上选择 %1。</translation>
    </message>
    <message>
        <source>The %1 tests could not be listed; Start runs all of them.</source>
        <translation>无法列出 %1 测试；“开始”会运行全部测试。</translation>
    </message>
    <message>
        <source>Listing the %1 tests…</source>
        <translation>正在列出 %1 测试…</translation>
    </message>
    <message>
        <source>A model given by its parameter count has no GEMM shapes to measure: describe its layers (a transformer or the MLP) to measure the plan&apos;s GEMMs.</source>
        <translation>以参数量给出的模型没有可测量的 GEMM 形状：请描述它的层（transformer 或 MLP）以测量计划的 GEMM。</translation>
    </message>
    <message>
        <source>The probe has no GEMM in the plan&apos;s compute dtype %1: pick fp32, bf16, fp16 or fp8 under Training to measure the plan&apos;s GEMMs.</source>
        <translation>探测没有计划计算数据类型 %1 的 GEMM：请在“训练”下选择 fp32、bf16、fp16 或 fp8 来测量计划的 GEMM。</translation>
    </message>
    <message>
        <source>The CPU backend times fp32 and fp64 GEMMs; the plan computes in %1. Pick fp32 as the compute dtype under Training, or run on a GPU.</source>
        <translation>CPU 后端只计时 fp32 和 fp64 的 GEMM；计划以 %1 计算。请在“训练”下把计算数据类型设为 fp32，或在 GPU 上运行。</translation>
    </message>
    <message>
        <source>Pick at least one test.</source>
        <translation>请至少选择一项测试。</translation>
    </message>
    <message>
        <source>%v of %m GEMMs</source>
        <translation>%v / %m 个 GEMM</translation>
    </message>
    <message>
        <source>Starting tally-probe (%1 backend)…</source>
        <translation>正在启动 tally-probe（%1 后端）…</translation>
    </message>
    <message>
        <source>Starting tally-probe on %2 (%1 backend)…</source>
        <translation>正在 %2 上启动 tally-probe（%1 后端）…</translation>
    </message>
    <message>
        <source>Saving as probe run #%1 in %2</source>
        <translation>保存为探测运行 #%1，位于 %2</translation>
    </message>
    <message>
        <source>Not saved: the workspace refused the run (%1). The results below are shown but not stored.</source>
        <translation>未保存：工作区拒绝了这次运行（%1）。下面显示了结果，但没有保存。</translation>
    </message>
    <message>
        <source>Will be saved in %1</source>
        <translation>将保存在 %1</translation>
    </message>
    <message>
        <source>Not saved: the workspace %1 cannot be opened (%2). The run goes on and is shown here.</source>
        <translation>未保存：无法打开工作区 %1（%2）。运行会继续，结果显示在这里。</translation>
    </message>
    <message>
        <source>No workspace is open: this run is shown here but not saved.</source>
        <translation>没有打开工作区：这次运行显示在这里，但不会保存。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>%1 %2 on %3%4</source>
        <translation>%1 %2，在 %3%4</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source> (quick)</source>
        <translation> （快速）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>unreadable output from tally-probe, %1</source>
        <translation>tally-probe 的输出无法读取，%1</translation>
    </message>
    <message>
        <source>Saved as probe run #%1 (%2) in %3</source>
        <translation>已保存为探测运行 #%1（%2），位于 %3</translation>
    </message>
    <message>
        <source>the saved run could not be read back: %1</source>
        <translation>无法读回已保存的运行：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n result(s)</source>
        <translation>
            <numerusform>%n 个结果</numerusform>
        </translation>
    </message>
    <message>
        <source>No run: tally-probe stopped before measuring anything.</source>
        <translation>没有运行：tally-probe 在测量任何内容之前就停止了。</translation>
    </message>
    <message numerus="yes">
        <source>Finished: %n result(s), every one passed or waived.</source>
        <translation>
            <numerusform>完成：%n 个结果，全部通过或豁免。</numerusform>
        </translation>
    </message>
    <message>
        <source>Finished, but %1: see the Status column (hover a row for the reason).</source>
        <translation>完成，但 %1：见“状态”列（悬停在行上可看原因）。</translation>
    </message>
    <message>
        <source>tally-probe refused the options: %1</source>
        <translation>tally-probe 拒绝了这些选项：%1</translation>
    </message>
    <message>
        <source>The %1 backend is not available here: %2</source>
        <translation>%1 后端在这里不可用：%2</translation>
    </message>
    <message>
        <source>tally-probe could not be started: %1</source>
        <translation>无法启动 tally-probe：%1</translation>
    </message>
    <message>
        <source>Runs are saved in %1</source>
        <translation>运行保存在 %1</translation>
    </message>
    <message>
        <source>No workspace is open: runs are shown here but not saved.</source>
        <translation>没有打开工作区：运行会显示在这里，但不会保存。</translation>
    </message>
    <message>
        <source>The workspace&apos;s probe runs cannot be read: %1</source>
        <translation>无法读取工作区的探测运行：%1</translation>
    </message>
    <message>
        <source>(the run reported no device)</source>
        <translation>（这次运行没有报告设备）</translation>
    </message>
    <message>
        <source>Stored probe run #%1</source>
        <translation>已存储的探测运行 #%1</translation>
    </message>
    <message>
        <source>the plan&apos;s GPU (%1)</source>
        <translation>计划的 GPU（%1）</translation>
    </message>
    <message>
        <source>The workspace&apos;s profiles cannot be read: %1</source>
        <translation>无法读取工作区的硬件配置：%1</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>没有打开工作区。</translation>
    </message>
    <message>
        <source>Made the measured hardware profile &quot;%1&quot; (%2) from probe run #%3; the GPU picker lists it.</source>
        <translation>已从探测运行 #%3 创建实测硬件配置“%1”（%2）；GPU 选择器中已列出它。</translation>
    </message>
    <message>
        <source>A hardware profile with this run&apos;s measured peaks, bandwidth and GEMM times</source>
        <translation>用这次运行实测的峰值、带宽和 GEMM 时间建立的硬件配置</translation>
    </message>
    <message>
        <source>Needs a run stored in the workspace: pick one under Past runs, or run the probe with a workspace open</source>
        <translation>需要一个存储在工作区中的运行：请在“过去的运行”中选一个，或在打开工作区的情况下运行探测</translation>
    </message>
    <message>
        <source>%1 warnings, the last %2:
%3</source>
        <translation>%1 条警告，最后 %2 条：
%3</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探测</translation>
    </message>
    <message>
        <source>NCCL collectives (the cluster&apos;s GPUs)</source>
        <translation>NCCL 集合通信（集群的 GPU）</translation>
    </message>
    <message>
        <source>TCP collectives (CPU ranks, no GPUs)</source>
        <translation>TCP 集合通信（CPU rank，不用 GPU）</translation>
    </message>
    <message>
        <source>All-reduce, all-gather, reduce-scatter, all-to-all and send/recv between the GPUs the launcher starts, one rank per GPU, through NCCL (as nccl-tests measures them)</source>
        <translation>通过 NCCL 在启动器启动的 GPU 之间测量 all-reduce、all-gather、reduce-scatter、all-to-all 和 send/recv，每个 GPU 一个 rank（测法与 nccl-tests 相同）</translation>
    </message>
    <message>
        <source>The same collectives over TCP between CPU ranks: checks the launcher and the network without GPUs</source>
        <translation>在 CPU rank 之间通过 TCP 运行相同的集合通信：不用 GPU 即可检查启动器和网络</translation>
    </message>
    <message>
        <source>A cluster, through a launcher (srun, mpirun)</source>
        <translation>集群，通过启动器（srun、mpirun）</translation>
    </message>
    <message>
        <source>Run tally-probe as the ranks of a cluster launcher started here (on a login node: srun, mpirun): it measures the collectives between the ranks, as tally probe --launcher does</source>
        <translation>把 tally-probe 作为在这里启动的集群启动器（在登录节点上：srun、mpirun）的各个 rank 运行：它测量 rank 之间的集合通信，与 tally probe --launcher 相同</translation>
    </message>
    <message>
        <source>launcher, e.g. srun -N 2 --ntasks-per-node 8</source>
        <translation>启动器，例如 srun -N 2 --ntasks-per-node 8</translation>
    </message>
    <message>
        <source>Cluster launcher</source>
        <translation>集群启动器</translation>
    </message>
    <message>
        <source>Type the launcher that starts the ranks, e.g. srun -N 2 --ntasks-per-node 8 or mpirun -np 16.</source>
        <translation>请输入启动各 rank 的启动器，例如 srun -N 2 --ntasks-per-node 8 或 mpirun -np 16。</translation>
    </message>
    <message>
        <source>Starting tally-probe through %2 (%1 backend)…</source>
        <translation>正在通过 %2 启动 tally-probe（%1 后端）…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Make hardware profile</source>
        <translation>生成硬件配置</translation>
    </message>
    <message numerus="yes">
        <source>Probe run #%1 failed: it stopped before its end, or a test failed. A profile made from it takes only the passed, validated results among its %n result(s), and keeps the base profile&apos;s figures for everything it did not measure. Make the profile anyway?</source>
        <translation>
            <numerusform>探测运行 #%1 失败了：它在结束前停止了，或有测试失败。由它生成的配置只采用其 %n 个结果中通过验证的那些，未测量的项保留基础配置的数值。仍要生成配置吗？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete probe run %1 and its %n result(s) from the workspace? This cannot be undone.</source>
        <translation>
            <numerusform>从工作区删除探测运行 %1 及其 %n 个结果吗？此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete probe run</source>
        <translation>删除探测运行</translation>
    </message>
    <message>
        <source>Deleted probe run #%1.</source>
        <translation>已删除探测运行 #%1。</translation>
    </message>
    <message>
        <source>Delete this run and its results from the workspace</source>
        <translation>从工作区删除这次运行及其结果</translation>
    </message>
    <message>
        <source>Needs a run stored in the workspace: pick one under Past runs</source>
        <translation>需要一次已保存在工作区的运行：请在“过去的运行”中选择一个</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProbeResultsModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>±%1</source>
        <translation>±%1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>median %1 s over %2 samples (min %3 s, max %4 s)</source>
        <translation>%2 个样本的中位数 %1 s（最小 %3 s，最大 %4 s）</translation>
    </message>
    <message>
        <source>%1 FLOPs per sample</source>
        <translation>每个样本 %1 FLOPs</translation>
    </message>
    <message>
        <source>%1 bytes per sample</source>
        <translation>每个样本 %1 字节</translation>
    </message>
    <message>
        <source>intensity %1 FLOP/byte</source>
        <translation>强度 %1 FLOP/byte</translation>
    </message>
    <message>
        <source>validated against an independent reference</source>
        <translation>已与独立参考结果核对</translation>
    </message>
    <message>
        <source>not validated</source>
        <translation>未验证</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>Bytes/s</source>
        <translation>字节/秒</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>离散度</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Validated</source>
        <translation>已验证</translation>
    </message>
    <message>
        <source>% peak</source>
        <translation>峰值 %</translation>
    </message>
    <message>
        <source>% bandwidth</source>
        <translation>带宽 %</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>no profile</source>
        <translation>无配置</translation>
    </message>
    <message>
        <source>Relative standard deviation of the samples</source>
        <translation>样本的相对标准差</translation>
    </message>
    <message>
        <source>FLOP/s as a fraction of %1&apos;s dense peak of the result&apos;s dtype</source>
        <translation>FLOP/s 占 %1 在该结果数据类型下稠密峰值的比例</translation>
    </message>
    <message>
        <source>Bytes/s as a fraction of %1&apos;s memory bandwidth</source>
        <translation>Bytes/s 占 %1 内存带宽的比例</translation>
    </message>
    <message>
        <source>The output was compared with an independent reference and matched</source>
        <translation>输出已与独立参考结果比较并一致</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProbeRunSaver</name>
    <message>
        <source>the probe run could not be saved: %1</source>
        <translation>无法保存探测运行：%1</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProbeRunner</name>
    <message>
        <source>line %1 was cut off (the output ended inside it): %2</source>
        <translation>第 %1 行被截断（输出在该行中间结束）：%2</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>the results that arrived before it are kept (%1)</source>
        <translation>在它之前到达的结果已保留（%1）</translation>
    </message>
    <message>
        <source> (its last words: %1)</source>
        <translation> （它最后的输出：%1）</translation>
    </message>
    <message>
        <source>cancelled; %1</source>
        <translation>已取消；%1</translation>
    </message>
    <message>
        <source>tally-probe printed nothing for %1 s and was stopped as hung; %2</source>
        <translation>tally-probe 在 %1 s 内没有任何输出，已作为挂起而停止；%2</translation>
    </message>
    <message>
        <source>tally-probe crashed (it was killed by a signal)%1; %2</source>
        <translation>tally-probe 崩溃了（被信号终止）%1；%2</translation>
    </message>
    <message>
        <source>%1 could not run the probe on %2%3; check that `%1 %2` logs in without a password prompt (a key or an agent)</source>
        <translation>%1 无法在 %2%3 上运行探测；请检查 `%1 %2` 能否无需输入密码登录（密钥或代理）</translation>
    </message>
    <message>
        <source>%1 %2 on %3%4; copy tally-probe there, or name it with --remote-probe PATH</source>
        <translation>%1 %2 在 %3%4；请把 tally-probe 复制过去，或用 --remote-probe PATH 指定它</translation>
    </message>
    <message>
        <source>was not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>is not executable</source>
        <translation>不可执行</translation>
    </message>
    <message>
        <source>tally-probe exited with status %1</source>
        <translation>tally-probe 以状态 %1 退出</translation>
    </message>
    <message>
        <source>%1 of %2 results failed</source>
        <translation>%2 个结果中有 %1 个失败</translation>
    </message>
    <message>
        <source>tally-probe exited with status %1 (a shell&apos;s report of signal %2)</source>
        <translation>tally-probe 以状态 %1 退出（shell 对信号 %2 的报告）</translation>
    </message>
    <message>
        <source> before the end of the run</source>
        <translation> ，在运行结束之前</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProbeRunsModel</name>
    <message>
        <source>&lt;b&gt;Probe run #%1&lt;/b&gt; on %2&lt;br&gt;started %3, finished %4&lt;br&gt;%5</source>
        <translation>&lt;b&gt;探测运行 #%1&lt;/b&gt;，在 %2&lt;br&gt;开始于 %3，结束于 %4&lt;br&gt;%5</translation>
    </message>
    <message>
        <source>(never: the run did not end)</source>
        <translation>（从未：运行没有结束）</translation>
    </message>
    <message>
        <source>no device reported</source>
        <translation>没有报告设备</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProfileEditorDialog</name>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>New profile from %1</source>
        <translation>基于 %1 新建配置</translation>
    </message>
    <message>
        <source>Edit profile %1</source>
        <translation>编辑配置 %1</translation>
    </message>
    <message>
        <source>The id of a stored profile is fixed (plans name their GPU by it); duplicate the profile to store it under another id.</source>
        <translation>已存储配置的 id 是固定的（计划用它指定 GPU）；请复制该配置，以另一个 id 存储。</translation>
    </message>
    <message>
        <source>How plans name this GPU (cluster.gpu): letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;.</source>
        <translation>计划如何指定这个 GPU（cluster.gpu）：字母、数字、&apos;.&apos;、&apos;_&apos; 或 &apos;-&apos;。</translation>
    </message>
    <message>
        <source>Profile id</source>
        <translation>配置 id</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Where the figures come from, what differs from the original…</source>
        <translation>数据从哪里来，与原始数据有何不同…</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Memory, power and price</source>
        <translation>内存、功耗和价格</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>GB</translation>
    </message>
    <message>
        <source>Memory per GPU in GB (10^9 bytes, as datasheets count).</source>
        <translation>每 GPU 内存，单位 GB（10^9 字节，与数据手册的算法相同）。</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>Memory bandwidth in GB/s (10^9 bytes per second).</source>
        <translation>内存带宽，单位 GB/s（每秒 10^9 字节）。</translation>
    </message>
    <message>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>Board power in watts (empty: not known; the plan&apos;s energy needs it).</source>
        <translation>板卡功耗，单位瓦（留空：未知；计划的能耗需要它）。</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>per GPU-h</source>
        <translation>每 GPU 小时</translation>
    </message>
    <message>
        <source>What one GPU-hour of this part costs you, in your currency (empty: not known). Compare prices each part at its own price; parts without one use the plan&apos;s.</source>
        <translation>这种硬件每 GPU 小时花费多少，用你的货币（留空：未知）。“比较”按各硬件自己的价格计价；没有价格的硬件使用计划的价格。</translation>
    </message>
    <message>
        <source>Dense peaks (no 2:4 sparsity)</source>
        <translation>稠密峰值（不含 2:4 稀疏）</translation>
    </message>
    <message>
        <source>TOP/s</source>
        <translation>TOP/s</translation>
    </message>
    <message>
        <source>TFLOP/s</source>
        <translation>TFLOP/s</translation>
    </message>
    <message>
        <source>Dense %1 peak in T%2/s (empty: the part has no such path). A plan&apos;s time is set by the peak of its compute dtype.</source>
        <translation>稠密 %1 峰值，单位 T%2/s（留空：硬件没有这种计算路径）。计划的时间由其计算数据类型的峰值决定。</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number</source>
        <translation>%1：&quot;%2&quot; 不是数字</translation>
    </message>
    <message>
        <source>No workspace is open: open one to store profiles.</source>
        <translation>没有打开工作区：请打开一个工作区来存储配置。</translation>
    </message>
    <message>
        <source>%1: got %2 %3; from %4 to %5 %3, or empty for none</source>
        <translation>%1：给出的是 %2 %3；应在 %4 到 %5 %3 之间，或留空表示没有</translation>
    </message>
    <message>
        <source>%1: got %2 %3; from %4 to %5 %3</source>
        <translation>%1：给出的是 %2 %3；应在 %4 到 %5 %3 之间</translation>
    </message>
    <message>
        <source>Check the profile and store it in the workspace (Ctrl+Enter)</source>
        <translation>检查配置并保存到工作区（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Dense peaks: every box is empty or 0; give at least one dtype a peak above 0 TFLOP/s</source>
        <translation>稠密峰值：每一栏都为空或为 0；请至少给一种数据类型填写大于 0 TFLOP/s 的峰值</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProfileManagerPanel</name>
    <message>
        <source>Duplicate and edit…</source>
        <translation>复制并编辑…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Copy the selected profile into a custom one and edit its figures.</source>
        <translation>把选中的配置复制为自定义配置，并编辑其数据。</translation>
    </message>
    <message>
        <source>Edit the selected custom or measured profile.</source>
        <translation>编辑选中的自定义或实测配置。</translation>
    </message>
    <message>
        <source>Delete the selected custom or measured profile.</source>
        <translation>删除选中的自定义或实测配置。</translation>
    </message>
    <message>
        <source>Add the profile a JSON file holds (what `tally profiles export` writes).</source>
        <translation>添加 JSON 文件中的配置（即 `tally profiles export` 写出的文件）。</translation>
    </message>
    <message>
        <source>Write the selected profile as JSON (what `tally profiles import` reads).</source>
        <translation>把选中的配置写成 JSON（即 `tally profiles import` 读取的文件）。</translation>
    </message>
    <message>
        <source>Import a profile</source>
        <translation>导入配置</translation>
    </message>
    <message>
        <source>Profiles (*.json);;All files (*)</source>
        <translation>配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export profile %1</source>
        <translation>导出配置 %1</translation>
    </message>
    <message>
        <source>Profiles (*.json)</source>
        <translation>配置 (*.json)</translation>
    </message>
    <message>
        <source>The workspace&apos;s profiles cannot be listed: %1</source>
        <translation>无法列出工作区的配置：%1</translation>
    </message>
    <message>
        <source>&lt;p&gt;Select a profile to see all its figures. Built-in profiles come from the shipped catalog and are read-only: &lt;i&gt;Duplicate and edit…&lt;/i&gt; makes a custom copy. Measured profiles come from probe runs.&lt;/p&gt;</source>
        <translation>&lt;p&gt;选择一个配置以查看它的全部数据。内置配置来自随附的目录，只读：&lt;i&gt;复制并编辑…&lt;/i&gt;会创建一个可编辑的自定义副本。实测配置来自探测运行。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; (%2, %3)&lt;br&gt;Memory %4 (%5), bandwidth %6, TDP %7&lt;br&gt;Dense peaks: %8&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;（%2，%3）&lt;br&gt;内存 %4（%5），带宽 %6，TDP %7&lt;br&gt;稠密峰值：%8&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>&lt;p&gt;Price: %1 per GPU-hour (used where a plan gives no price of its own)&lt;/p&gt;</source>
        <translation>&lt;p&gt;价格：每 GPU 小时 %1（用于没有自带价格的计划）&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Price: none (plans on this profile are priced at their own price per GPU-hour)&lt;/p&gt;</source>
        <translation>&lt;p&gt;价格：无（使用此配置的计划按各自的每 GPU 小时价格计价）&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Notes: %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;备注：%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Sources:&lt;/p&gt;&lt;ul&gt;%1&lt;/ul&gt;</source>
        <translation>&lt;p&gt;来源：&lt;/p&gt;&lt;ul&gt;%1&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>Saved profile %1.</source>
        <translation>已保存配置 %1。</translation>
    </message>
    <message>
        <source> The probe run it was measured from is kept.</source>
        <translation> 测得它的那次探测运行会保留。</translation>
    </message>
    <message>
        <source>Delete profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <source>Deleted profile %1.</source>
        <translation>已删除配置 %1。</translation>
    </message>
    <message>
        <source>No workspace is open: open one to import profiles into.</source>
        <translation>没有打开工作区：请打开一个工作区来导入配置。</translation>
    </message>
    <message>
        <source>%1: %2. Choose another id or name for the imported profile.</source>
        <translation>%1：%2。请为导入的配置选择另一个 id 或名称。</translation>
    </message>
    <message>
        <source>%1 cannot be imported: %2</source>
        <translation>无法导入 %1：%2</translation>
    </message>
    <message>
        <source>Imported %1 profile %2 (%3) from %4.</source>
        <translation>已从 %4 导入 %1 配置 %2（%3）。</translation>
    </message>
    <message>
        <source>Exported profile %1 to %2.</source>
        <translation>已把配置 %1 导出到 %2。</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Calibrated&lt;/b&gt;: efficiency %1 = %2 s predicted / %3 s measured a step (%4, fitted on %5, %6; source: %7). Every plan on this profile divides its predicted step by %1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;已校准&lt;/b&gt;：效率 %1 = 预测单步 %2 s / 实测单步 %3 s（%4，基于 %5 拟合，%6；来源：%7）。使用此配置的每个计划都把预测的单步时间除以 %1。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>plan not recorded</source>
        <translation>计划未记录</translation>
    </message>
    <message>
        <source>profile not recorded</source>
        <translation>配置未记录</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>日期未记录</translation>
    </message>
    <message>
        <source>source not recorded</source>
        <translation>来源未记录</translation>
    </message>
    <message>
        <source>The profile %1 is no longer in the workspace (another window or program removed it).</source>
        <translation>硬件配置 %1 已不在工作区中（另一个窗口或程序删除了它）。</translation>
    </message>
    <message>
        <source>Plans whose GPU is %1 will not be drawn until you pick another GPU for them.</source>
        <translation>GPU 为 %1 的计划在你为它们另选 GPU 之前将无法绘制。</translation>
    </message>
    <message numerus="yes">
        <source>%n saved plan(s) run on it and will not be drawn until you pick another GPU for them: %1.</source>
        <translation>
            <numerusform>有 %n 个已保存的计划使用它，在你为它们另选 GPU 之前将无法绘制：%1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete the %1 profile %2 (%3) from the workspace? %4%5</source>
        <translation>从工作区删除%1硬件配置 %2（%3）吗？%4%5</translation>
    </message>
    <message>
        <source>&lt;p&gt;Fitted on a run of %1: plans of another engine on this profile are warned that its efficiency is that engine&apos;s.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在 %1 的运行上拟合：该配置上使用其他引擎的规划会被提示，这个效率属于该引擎。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>tally::ui::ProfileTableModel</name>
    <message>
        <source>built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1: built-in (from the shipped catalog), read-only. Duplicate it to make a copy you can edit.</source>
        <translation>%1：内置（来自随附的目录），只读。复制它即可得到一个可编辑的副本。</translation>
    </message>
    <message>
        <source>%1: %2, stored in the workspace.</source>
        <translation>%1：%2，存储在工作区中。</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Dense bf16 peak</source>
        <translation>稠密 bf16 峰值</translation>
    </message>
</context>
<context>
    <name>tally::ui::Roofline</name>
    <message>
        <source>Arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/byte）</translation>
    </message>
    <message>
        <source>Attainable TFLOP/s</source>
        <translation>可达到的 TFLOP/s</translation>
    </message>
</context>
<context>
    <name>tally::ui::RooflinePanel</name>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove selected</source>
        <translation>删除所选</translation>
    </message>
    <message>
        <source>Roofline: attainable FLOP/s = min(peak, intensity x bandwidth)</source>
        <translation>Roofline：可达到的 FLOP/s = min(峰值, 强度 × 带宽)</translation>
    </message>
    <message>
        <source>Operation kind</source>
        <translation>运算种类</translation>
    </message>
    <message>
        <source>Operation dtype</source>
        <translation>运算数据类型</translation>
    </message>
    <message>
        <source>name (optional)</source>
        <translation>名称（可选）</translation>
    </message>
    <message>
        <source>Operation name</source>
        <translation>运算名称</translation>
    </message>
    <message>
        <source>Einsum expression</source>
        <translation>Einsum 表达式</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Your operation:</source>
        <translation>你的运算：</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>lecture 2 ops</source>
        <translation>第 2 讲的运算</translation>
    </message>
    <message>
        <source>your ops</source>
        <translation>你的运算</translation>
    </message>
    <message>
        <source>%1 step</source>
        <translation>%1 步</translation>
    </message>
    <message>
        <source>%1 layers</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>batch seq1 hidden, batch seq2 hidden -&gt; batch seq1 seq2</source>
        <translation>batch seq1 hidden, batch seq2 hidden -&gt; batch seq1 seq2</translation>
    </message>
    <message>
        <source>(einsum only)</source>
        <translation>（仅 einsum）</translation>
    </message>
    <message>
        <source>batch=8 seq1=1024 seq2=1024 hidden=128</source>
        <translation>batch=8 seq1=1024 seq2=1024 hidden=128</translation>
    </message>
    <message>
        <source>m=1024 k=1024 n=1024</source>
        <translation>m=1024 k=1024 n=1024</translation>
    </message>
    <message>
        <source>m=1024 n=1024</source>
        <translation>m=1024 n=1024</translation>
    </message>
    <message>
        <source>n=1000000</source>
        <translation>n=1000000</translation>
    </message>
    <message>
        <source>measured matmuls</source>
        <translation>实测 matmul</translation>
    </message>
    <message>
        <source>measured lecture 2 ops</source>
        <translation>实测第 2 讲运算</translation>
    </message>
    <message>
        <source>measured intensity sweep</source>
        <translation>实测强度扫描</translation>
    </message>
    <message>
        <source>measured STREAM</source>
        <translation>实测 STREAM</translation>
    </message>
    <message>
        <source>measured, other</source>
        <translation>实测，其他</translation>
    </message>
    <message>
        <source>measured bandwidth %1</source>
        <translation>实测带宽 %1</translation>
    </message>
    <message>
        <source>Measured roofs and points</source>
        <translation>实测的上限和测量点</translation>
    </message>
    <message>
        <source>of probe run %1</source>
        <translation>来自探测运行 %1</translation>
    </message>
    <message>
        <source>none yet: run the probe in the Probe panel, or pick a past run there</source>
        <translation>还没有：在“探测”面板运行探测，或在那里选一次以往的运行</translation>
    </message>
    <message>
        <source>Roofline of %1: attainable FLOP/s = min(dense peak, intensity x %2); %3 ridge %4 FLOP/byte</source>
        <translation>%1 的 Roofline：可达到的 FLOP/s = min(稠密峰值, 强度 × %2)；%3 加速器强度 %4 FLOP/byte</translation>
    </message>
    <message>
        <source>— roofs: its best matmul of each dtype, sloping at its best %1 bandwidth, %2 (a profile made from the run plans with these; another test may run above them)</source>
        <translation>—— 屋顶：各数据类型中最好的矩阵乘法，斜边取其最好的 %1 带宽 %2（由这次运行生成的配置按这些数字做规划；其他测试可能高于屋顶）</translation>
    </message>
    <message>
        <source>measured %1 matmul %2</source>
        <translation>实测 %1 矩阵乘法 %2</translation>
    </message>
</context>
<context>
    <name>tally::ui::RooflineTableModel</name>
    <message>
        <source>lecture 2</source>
        <translation>第 2 讲</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>你的</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>all operations of one %1 step</source>
        <translation>一个 %1 步的全部运算</translation>
    </message>
    <message>
        <source>%1 (%2, %3)
FLOPs %4, bytes moved %5 (read %6 + write %7)
intensity = FLOPs / bytes = %8 FLOP/byte
attainable = min(peak, intensity x bandwidth) = min(%9, %10 x %11 B/s) = %12
%13: intensity %14 the ridge %15 FLOP/byte (peak / bandwidth)</source>
        <translation>%1（%2，%3）
FLOPs %4，移动字节数 %5（读 %6 + 写 %7）
强度 = FLOPs / 字节数 = %8 FLOP/byte
可达到 = min(峰值, 强度 × 带宽) = min(%9, %10 × %11 B/s) = %12
%13：强度%14加速器强度 %15 FLOP/byte（峰值 / 带宽）</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>内存受限</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <source>below</source>
        <translation>低于</translation>
    </message>
    <message>
        <source>at or above</source>
        <translation>不低于</translation>
    </message>
    <message>
        <source>runs %1 times per step</source>
        <translation>每步运行 %1 次</translation>
    </message>
    <message>
        <source>Source: Williams et al. 2009 (roofline); CS336 lecture 2</source>
        <translation>来源：Williams et al. 2009 (roofline)；CS336 第 2 讲</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>运算</translation>
    </message>
    <message>
        <source>Set</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节数</translation>
    </message>
    <message>
        <source>FLOP/byte</source>
        <translation>FLOP/byte</translation>
    </message>
    <message>
        <source>Attainable</source>
        <translation>可达到</translation>
    </message>
    <message>
        <source>Bound</source>
        <translation>受限于</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Per step</source>
        <translation>每步</translation>
    </message>
    <message>
        <source>memory (no FLOPs: not drawn)</source>
        <translation>内存（无 FLOPs：不画在图上）</translation>
    </message>
</context>
<context>
    <name>tally::ui::SavedPlansModel</name>
    <message>
        <source>%1 parameters</source>
        <translation>%1 个参数</translation>
    </message>
    <message>
        <source>ReLU network, %1 layers of %2</source>
        <translation>ReLU 网络，%1 层，每层 %2</translation>
    </message>
    <message>
        <source>transformer, %1 layers, hidden %2</source>
        <translation>transformer，%1 层，hidden %2</translation>
    </message>
    <message>
        <source>(does not read)</source>
        <translation>（无法读取）</translation>
    </message>
    <message>
        <source>The stored plan does not read: %1</source>
        <translation>存储的计划无法读取：%1</translation>
    </message>
    <message>
        <source>%1 (id %2)
Saved %3, last changed %4</source>
        <translation>%1（id %2）
保存于 %3，最后修改于 %4</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
</context>
<context>
    <name>tally::ui::SavedPlansPanel</name>
    <message>
        <source>Save current plan in the workspace as…</source>
        <translation>在工作区保存当前计划为…</translation>
    </message>
    <message>
        <source>Replace with current plan</source>
        <translation>用当前计划替换</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Store the plan being edited in the workspace (this list, the same as tally plans list) under a name. File &gt; Save to a JSON file writes it to a file instead, for tally plan PLAN.json or to share.</source>
        <translation>把正在编辑的计划以某个名称存入工作区（即此列表，与 tally plans list 相同）。“文件 &gt; 保存为 JSON 文件”则写入文件，供 tally plan PLAN.json 使用或分享。</translation>
    </message>
    <message>
        <source>Store the plan being edited over the selected saved plan.</source>
        <translation>用正在编辑的计划覆盖选中的已保存计划。</translation>
    </message>
    <message>
        <source>Load the selected plan into the form (one undo step: Ctrl+Z returns to the plan you had).</source>
        <translation>把选中的计划载入表单（一步撤销：Ctrl+Z 回到原来的计划）。</translation>
    </message>
    <message>
        <source>The workspace&apos;s plans cannot be listed: %1</source>
        <translation>无法列出工作区的计划：%1</translation>
    </message>
    <message>
        <source>Not while a field is rejected: %1</source>
        <translation>有字段被拒绝时不能这样做：%1</translation>
    </message>
    <message>
        <source>The plan is not saved while a field is rejected: %1</source>
        <translation>有字段被拒绝时不保存计划：%1</translation>
    </message>
    <message>
        <source>Save the plan in the workspace</source>
        <translation>在工作区保存计划</translation>
    </message>
    <message>
        <source>Name of the saved plan:</source>
        <translation>已保存计划的名称：</translation>
    </message>
    <message>
        <source>Name the plan &quot;%1&quot;</source>
        <translation>把计划命名为“%1”</translation>
    </message>
    <message>
        <source>Saved the plan as &quot;%1&quot;.</source>
        <translation>已把计划保存为“%1”。</translation>
    </message>
    <message>
        <source>Replace saved plan</source>
        <translation>替换已保存的计划</translation>
    </message>
    <message>
        <source>Replace the saved plan &quot;%1&quot; with the plan being edited?</source>
        <translation>用正在编辑的计划替换已保存的计划“%1”吗？</translation>
    </message>
    <message>
        <source>Saved the plan over &quot;%1&quot;.</source>
        <translation>已把计划保存到“%1”上。</translation>
    </message>
    <message>
        <source>Open saved plan &quot;%1&quot;</source>
        <translation>打开已保存的计划“%1”</translation>
    </message>
    <message>
        <source>Opened &quot;%1&quot; (Ctrl+Z returns to the plan you had).</source>
        <translation>已打开“%1”（Ctrl+Z 回到原来的计划）。</translation>
    </message>
    <message>
        <source>The saved plan cannot be opened: %1</source>
        <translation>无法打开已保存的计划：%1</translation>
    </message>
    <message>
        <source>Rename saved plan</source>
        <translation>重命名已保存的计划</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Renamed &quot;%1&quot; to &quot;%2&quot;.</source>
        <translation>已把“%1”重命名为“%2”。</translation>
    </message>
    <message>
        <source>Delete saved plan</source>
        <translation>删除已保存的计划</translation>
    </message>
    <message>
        <source>Delete the saved plan &quot;%1&quot; from the workspace?</source>
        <translation>要从工作区删除已保存的计划“%1”吗？</translation>
    </message>
    <message>
        <source>Deleted &quot;%1&quot;.</source>
        <translation>已删除“%1”。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is no longer in the workspace as listed (another window or program removed or renamed it); the list is read again. &quot;Save current plan in the workspace as…&quot; stores the plan being edited under a name.</source>
        <translation>“%1”已不再以列表中的样子存在于工作区（另一个窗口或程序删除或重命名了它）；列表已重新读取。“将当前计划保存到工作区为…”可以把正在编辑的计划以一个名称保存。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is no longer in the workspace as listed (another window or program removed or renamed it); the list is read again.</source>
        <translation>“%1”已不再以列表中的样子存在于工作区（另一个窗口或程序删除或重命名了它）；列表已重新读取。</translation>
    </message>
    <message>
        <source>Compare…</source>
        <translation>比较…</translation>
    </message>
    <message>
        <source>Select 2 to 6 plans (Ctrl+click) to see them side by side: GPUs, layout, memory, step, days, GPU-hours, cost and energy (tally plans compare prints the same).</source>
        <translation>选中 2 到 6 个计划（Ctrl+单击）并排查看：GPU、布局、内存、单步、天数、GPU 小时、成本和能耗（tally plans compare 输出相同内容）。</translation>
    </message>
    <message>
        <source>The saved plans cannot be compared: %1</source>
        <translation>无法比较已保存的计划：%1</translation>
    </message>
    <message>
        <source>Saved plans side by side</source>
        <translation>已保存计划并排比较</translation>
    </message>
</context>
<context>
    <name>tally::ui::SpecForm</name>
    <message>
        <source>Import config.json…</source>
        <translation>导入 config.json…</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>%1
Source: %2</source>
        <translation>%1
来源：%2</translation>
    </message>
    <message>
        <source>Load a model&apos;s published dimensions (the source is in each entry&apos;s tooltip).</source>
        <translation>载入模型公开的尺寸（来源在每一项的提示中）。</translation>
    </message>
    <message>
        <source>Model preset</source>
        <translation>模型预设</translation>
    </message>
    <message>
        <source>Import a Hugging Face config.json</source>
        <translation>导入 Hugging Face 的 config.json</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>Multi-head latent attention (from the preset or config): kept as loaded.</source>
        <translation>多头潜在注意力（来自预设或配置）：按载入时保留。</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Plan name</source>
        <translation>计划名称</translation>
    </message>
    <message>
        <source>Untitled: the title says what the plan is</source>
        <translation>未命名：标题说明计划是什么</translation>
    </message>
    <message>
        <source>The plan&apos;s name: the window&apos;s title, the name it is saved under in the workspace, and the CSV&apos;s and the report&apos;s plan name.</source>
        <translation>计划的名称：用作窗口标题、在工作区中保存的名称，以及 CSV 和报告中的计划名。</translation>
    </message>
    <message>
        <source>Plan description</source>
        <translation>计划说明</translation>
    </message>
    <message>
        <source>What the plan is for, its sources, its assumptions</source>
        <translation>计划的用途、来源和假设</translation>
    </message>
    <message>
        <source>Free text kept with the plan in every save and export.</source>
        <translation>随计划一起保存和导出的自由文本。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Mixture of experts</source>
        <translation>混合专家</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Training recipe</source>
        <translation>训练配方</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Set GPU to %1</source>
        <translation>把 GPU 设为 %1</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Set %1 to %2</source>
        <translation>把 %1 设为 %2</translation>
    </message>
    <message>
        <source>Turn on %1</source>
        <translation>开启 %1</translation>
    </message>
    <message>
        <source>Turn off %1</source>
        <translation>关闭 %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Import config.json: %1</source>
        <translation>导入 config.json：%1</translation>
    </message>
    <message>
        <source>Load preset %1</source>
        <translation>载入预设 %1</translation>
    </message>
    <message>
        <source>Clear the plan&apos;s name</source>
        <translation>清除计划名称</translation>
    </message>
    <message>
        <source>Name the plan &quot;%1&quot;</source>
        <translation>把计划命名为“%1”</translation>
    </message>
    <message>
        <source>Edit the plan&apos;s description</source>
        <translation>编辑计划说明</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 个参数</translation>
    </message>
    <message>
        <source>, %1 active per token</source>
        <translation>，每 token 激活参数 %1</translation>
    </message>
    <message>
        <source> (%1 in embeddings)</source>
        <translation> （其中嵌入 %1）</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>Read a Hugging Face config.json (Llama, Mistral, Mixtral, Qwen, GPT-OSS, Gemma 2 and 3, DeepSeek-V3).</source>
        <translation>读取 Hugging Face 的 config.json（Llama、Mistral、Mixtral、Qwen、GPT-OSS、Gemma 2 与 3、DeepSeek-V3）。</translation>
    </message>
</context>
<context>
    <name>tally::ui::SummaryBar</name>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>Not drawn: these are the figures of the last plan the planner accepted (%1)</source>
        <translation>未绘制：这些是规划器最后接受的计划的数字（%1）</translation>
    </message>
    <message>
        <source>Memory per GPU, serving</source>
        <translation>每 GPU 内存，推理服务</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首 token 时间</translation>
    </message>
    <message>
        <source>Decode step</source>
        <translation>解码单步</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Cost per 1M tokens</source>
        <translation>每 1M token 成本</translation>
    </message>
    <message>
        <source>%1 / %2 GB %3</source>
        <translation>%1 / %2 GB %3</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>能放下</translation>
    </message>
    <message>
        <source>Does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source> of </source>
        <translation> / </translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>%1 tok/s</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>Set a price per GPU-hour in the cluster form.</source>
        <translation>请在集群表单中设置每 GPU 小时价格。</translation>
    </message>
    <message>
        <source>Serving plan (the spec&apos;s inference block): the headline is the Inference panel&apos;s; Memory, Time and Layouts plan training the model.</source>
        <translation>推理服务计划（计划文件的 inference 块）：标题数字来自“推理”面板；“内存”、“时间”和“并行布局”规划的是训练该模型。</translation>
    </message>
    <message>
        <source>%1 kWh</source>
        <translation>%1 kWh</translation>
    </message>
    <message>
        <source>The GPU&apos;s profile gives no TDP (board power), so the energy is not known. Edit the profile to add one.</source>
        <translation>GPU 的配置没有给出 TDP（板卡功耗），所以能耗未知。编辑配置即可添加。</translation>
    </message>
    <message>
        <source>Serving not planned: %1</source>
        <translation>未规划推理服务：%1</translation>
    </message>
    <message>
        <source>Memory per GPU, %1 in flight</source>
        <translation>每 GPU 内存，%1 个请求并发</translation>
    </message>
    <message>
        <source>Inter-token latency</source>
        <translation>token 间延迟</translation>
    </message>
    <message>
        <source>The KV caches of %1 requests in flight, each at its full context; the formula below is the static batch&apos;s.</source>
        <translation>含 %1 个并发请求的 KV 缓存，各按完整上下文计；下方公式为静态批次的。</translation>
    </message>
    <message>
        <source>Serving plan (the spec&apos;s inference block); training is not planned (%1): Memory, Time and Layouts still show the last training plan.</source>
        <translation>推理服务计划（计划文件的 inference 块）；未规划训练（%1）：“内存”、“时间”和“并行布局”仍显示上一个训练计划。</translation>
    </message>
    <message>
        <source>Memory per GPU, %1 in flight of %2</source>
        <translation>每 GPU 内存，%2 个请求中 %1 个并发</translation>
    </message>
    <message>
        <source>The KV cache holds no more: the other %1 requests wait for admission, %2 on average.</source>
        <translation>KV 缓存容纳不下更多：其余 %1 个请求等待准入，平均 %2。</translation>
    </message>
    <message>
        <source>Not shown: the deployment needs %1 per GPU of %2, so it cannot run (the warnings say what would fit).</source>
        <translation>不显示：该部署每 GPU 需要 %1（容量 %2），无法运行（警告中说明了怎样才能放下）。</translation>
    </message>
    <message>
        <source>The token budget of %1 a step keeps no more running: the other %2 requests wait for admission, %3 on average.</source>
        <translation>每步 %1 个 token 的预算无法再运行更多序列：其余 %2 个请求等待准入，平均 %3。</translation>
    </message>
    <message>
        <source>Training time, predicted</source>
        <translation>训练时间（预测）</translation>
    </message>
    <message>
        <source>Training time at MFU %1</source>
        <translation>训练时间（MFU %1）</translation>
    </message>
    <message>
        <source>Training time, calibrated</source>
        <translation>训练时间（校准）</translation>
    </message>
    <message>
        <source>Does not fit: this run would stop at its first step, out of memory (%1 per GPU of %2). The figure is the plan&apos;s as written.</source>
        <translation>放不下：此训练会在第一步因内存不足而停止（每块 GPU 需要 %1，内存 %2）。此数值是按计划原样计算的。</translation>
    </message>
    <message>
        <source>Every warning of the plan, one a line, to read or copy</source>
        <translation>计划的全部警告，每行一条，可阅读或复制</translation>
    </message>
    <message>
        <source>All %1 warnings…</source>
        <translation>全部 %1 条警告…</translation>
    </message>
    <message>
        <source>The whole warning…</source>
        <translation>完整警告…</translation>
    </message>
    <message>
        <source>Warnings of the plan</source>
        <translation>计划的警告</translation>
    </message>
    <message>
        <source>Memory per GPU, none admitted</source>
        <translation>每 GPU 内存，未接纳请求</translation>
    </message>
    <message>
        <source>One sequence with the weights; the engine&apos;s share of the memory leaves its KV cache less than that sequence takes, so no request is admitted and nothing is served (the warnings say why).</source>
        <translation>一个序列加权重；引擎分得的内存留给 KV 缓存的空间比这一个序列需要的还少，所以没有请求被接纳，什么也服务不了（原因见警告）。</translation>
    </message>
    <message>
        <source>Not shown: the engine&apos;s KV cache holds not one sequence, so no request is admitted and nothing is served (the warnings say why).</source>
        <translation>不显示：引擎的 KV 缓存连一个序列都放不下，所以没有请求被接纳，什么也服务不了（原因见警告）。</translation>
    </message>
</context>
<context>
    <name>tally::ui::TableCopy</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the selected cells as tab-separated text</source>
        <translation>把选中的单元格复制为以制表符分隔的文本</translation>
    </message>
    <message>
        <source>Copy with headers</source>
        <translation>连同表头复制</translation>
    </message>
    <message>
        <source>Copy the selected cells as tab-separated text, the column titles first</source>
        <translation>把选中的单元格复制为以制表符分隔的文本，首行为列标题</translation>
    </message>
    <message>
        <source>Copy the table as tab-separated text</source>
        <translation>把整张表复制为以制表符分隔的文本</translation>
    </message>
    <message>
        <source>Copy the table as tab-separated text, the column titles first</source>
        <translation>把整张表复制为以制表符分隔的文本，首行为列标题</translation>
    </message>
</context>
<context>
    <name>tally::ui::TimePanel</name>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Days against GPUs (same MFU)</source>
        <translation>天数与 GPU 数（MFU 不变）</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>This plan</source>
        <translation>本计划</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>= steps x predicted step time / 86400 s</source>
        <translation>= 步数 × 预测单步时间 / 86400 s</translation>
    </message>
    <message>
        <source>= FLOPs / (peak x MFU x GPUs x 86400 s)</source>
        <translation>= FLOPs / (峰值 × MFU × GPU 数 × 86400 s)</translation>
    </message>
    <message>
        <source>%1 GPUs: %2 days</source>
        <translation>%1 个 GPU：%2 天</translation>
    </message>
    <message>
        <source>One step, predicted</source>
        <translation>一步，预测值</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Hover a figure for its formula, the numbers in it and its source. Time = FLOPs / (dense peak x MFU x GPUs) with an assumed MFU, or steps x the predicted step time.</source>
        <translation>悬停在数字上可查看其公式、代入的数值和来源。时间 = FLOPs / (稠密峰值 × MFU × GPU 数)（假设 MFU），或步数 × 预测单步时间。</translation>
    </message>
    <message>
        <source>Days allowed</source>
        <translation>允许的天数</translation>
    </message>
    <message>
        <source>Doubles whole nodes until the best layout (the Layouts panel&apos;s search) trains the plan&apos;s tokens in the days given, then bisects: tally solve min-gpus.</source>
        <translation>整节点地倍增 GPU，直到最佳布局（“并行布局”面板的搜索）能在给定天数内训练完计划的 token，然后二分查找：tally solve min-gpus。</translation>
    </message>
    <message>
        <source>GPUs to train it in</source>
        <translation>在此天数内训练完所需的 GPU 数</translation>
    </message>
    <message>
        <source>days:</source>
        <translation>天：</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>The plan changed meanwhile: Find again.</source>
        <translation>计划在此期间变了：请重新查找。</translation>
    </message>
    <message>
        <source>Not searched: %1</source>
        <translation>未搜索：%1</translation>
    </message>
    <message>
        <source>No cluster of up to %1 %2 trains it in %3 days.</source>
        <translation>最多 %1 个 %2 的集群都无法在 %3 天内训练完。</translation>
    </message>
    <message>
        <source>Days against GPUs</source>
        <translation>天数与 GPU 数</translation>
    </message>
    <message>
        <source>One step, predicted: %1 (%2 tokens/s)</source>
        <translation>一步，预测值：%1（%2 token/s）</translation>
    </message>
    <message>
        <source>Days against GPUs (predicted, same tp and pp)</source>
        <translation>天数与 GPU 数（预测值，tp 和 pp 不变）</translation>
    </message>
    <message>
        <source>Calibrate from a measured step…</source>
        <translation>根据实测单步时间校准…</translation>
    </message>
    <message>
        <source>Enter the step your run of this plan measured (or read a Megatron-LM, NeMo or torchtitan log): the model&apos;s efficiency on this part is fitted to it and stored in a workspace profile, which the plan then uses (tally calibrate).</source>
        <translation>输入你按此计划运行时实测的单步时间（或读取 Megatron-LM、NeMo 或 torchtitan 日志）：模型在该硬件上的效率会据此拟合，并存入工作区的一个配置，随后计划会使用该配置（tally calibrate）。</translation>
    </message>
    <message>
        <source>Step %1, efficiency %2.</source>
        <translation>单步 %1，效率 %2。</translation>
    </message>
    <message>
        <source>tp %1</source>
        <translation>tp %1</translation>
    </message>
    <message>
        <source>pp %1</source>
        <translation>pp %1</translation>
    </message>
    <message>
        <source>cp %1</source>
        <translation>cp %1</translation>
    </message>
    <message>
        <source>dp %1</source>
        <translation>dp %1</translation>
    </message>
    <message>
        <source>ep %1</source>
        <translation>ep %1</translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>%1 virtual stages</source>
        <translation>%1 个虚拟阶段</translation>
    </message>
    <message>
        <source>ZeRO-%1</source>
        <translation>ZeRO-%1</translation>
    </message>
    <message>
        <source>selective recomputation</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>full recomputation</source>
        <translation>完整重计算</translation>
    </message>
    <message>
        <source>sqrt(L) checkpoints</source>
        <translation>sqrt(L) 检查点</translation>
    </message>
    <message>
        <source>sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>%1 GPUs: %2 days at %3</source>
        <translation>%1 个 GPU：%2 天，布局 %3</translation>
    </message>
    <message>
        <source>%1 GPUs: %2 days at the assumed MFU (%3)</source>
        <translation>%1 个 GPU：按假定的 MFU 需 %2 天（%3）</translation>
    </message>
    <message>
        <source>Days: &quot;%1&quot; is not a number; a number in (0, 1e6]</source>
        <translation>天数：&quot;%1&quot; 不是数；应为 (0, 1e6] 内的数</translation>
    </message>
    <message>
        <source>Days: got %1; a number in (0, 1e6]</source>
        <translation>天数：给出的是 %1；应为 (0, 1e6] 内的数</translation>
    </message>
    <message>
        <source>One step, calibrated: %1 (%2 tokens/s)</source>
        <translation>一步，校准值：%1（%2 token/s）</translation>
    </message>
    <message>
        <source>%1 GPUs: %2 days at the predicted MFU (a model given by its parameter count alone has no layers to lay out)</source>
        <translation>%1 个 GPU：按预测的 MFU 需 %2 天（只给参数量的模型没有层可供布局）</translation>
    </message>
    <message>
        <source>%1 GPUs: %2 days at the assumed MFU: FLOPs / (peak x MFU x GPUs) (a model given by its parameter count alone has no layers to lay out)</source>
        <translation>%1 个 GPU：按假设的 MFU 需 %2 天：FLOPs / (峰值 x MFU x GPU 数)（只给参数量的模型没有层可供布局）</translation>
    </message>
    <message>
        <source>%1 GPU-hours</source>
        <translation>%1 GPU 小时</translation>
    </message>
    <message>
        <source>, cost %1</source>
        <translation>，成本 %1</translation>
    </message>
    <message>
        <source>One step, calibrated</source>
        <translation>一步，校准值</translation>
    </message>
</context>
<context>
    <name>tally::ui::WorkspaceBanner</name>
    <message>
        <source>Start a new workspace…</source>
        <translation>新建工作区…</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
    <message>
        <source>Open another workspace…</source>
        <translation>打开另一个工作区…</translation>
    </message>
    <message>
        <source>No workspace is open: saved profiles and plans are not available. Planning works as before.</source>
        <translation>没有打开工作区：已保存的配置和计划不可用。规划照常进行。</translation>
    </message>
    <message>
        <source>Open a workspace…</source>
        <translation>打开工作区…</translation>
    </message>
    <message>
        <source>Start a new workspace</source>
        <translation>新建工作区</translation>
    </message>
    <message>
        <source>Open a workspace</source>
        <translation>打开工作区</translation>
    </message>
    <message>
        <source>Tally workspaces (*.sqlite *.db);;All files (*)</source>
        <translation>Tally 工作区 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Workspace (read-only: browse it; saving here is refused): %1</source>
        <translation>工作区（只读：可以浏览，但不能在此保存）：%1</translation>
    </message>
</context>
<context>
    <name>tally::ui::WorkspaceOpenDialog</name>
    <message>
        <source>No workspace file was chosen.</source>
        <translation>没有选择工作区文件。</translation>
    </message>
    <message>
        <source>%1 already exists. A new workspace needs a file name that is not taken; the file was left as it was.</source>
        <translation>%1 已经存在。新工作区需要一个未被占用的文件名；该文件保持原样。</translation>
    </message>
    <message>
        <source>Open another file…</source>
        <translation>打开另一个文件…</translation>
    </message>
    <message>
        <source>Start a new workspace…</source>
        <translation>新建工作区…</translation>
    </message>
    <message>
        <source>Keep the current workspace</source>
        <translation>保留当前工作区</translation>
    </message>
    <message>
        <source>Continue without a workspace</source>
        <translation>不使用工作区继续</translation>
    </message>
    <message>
        <source>The workspace did not open</source>
        <translation>工作区没有打开</translation>
    </message>
    <message>
        <source>The workspace you have open stays open unless another one opens.</source>
        <translation>你已打开的工作区会保持打开，除非另一个工作区打开了。</translation>
    </message>
    <message>
        <source>Without a workspace, planning works as before; saved profiles and plans are not available until a workspace is opened.</source>
        <translation>不使用工作区时，规划照常进行；在打开工作区之前，已保存的配置和计划不可用。</translation>
    </message>
    <message>
        <source>Tally workspaces (*.sqlite *.db);;All files (*)</source>
        <translation>Tally 工作区 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a workspace</source>
        <translation>打开工作区</translation>
    </message>
    <message>
        <source>Start a new workspace</source>
        <translation>新建工作区</translation>
    </message>
</context>
<context>
    <name>tally::warnings</name>
    <message>
        <source>does not fit: %1 GB needed per GPU, %2 has %3 GB (%4 GB over)</source>
        <translation>放不下：每 GPU 需要 %1 GB，%2 只有 %3 GB（超出 %4 GB）</translation>
    </message>
    <message>
        <source>MFU %1 is above the best published %2 matmul on %3 (%4 of peak): no model runs faster than a plain matmul</source>
        <translation>MFU %1 高于 %3 上已公布的最佳 %2 matmul（峰值的 %4）：没有模型能比单纯的 matmul 跑得更快</translation>
    </message>
    <message>
        <source>recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>memory-bound operations</source>
        <translation>内存受限运算</translation>
    </message>
    <message>
        <source>tensor-parallel communication</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <source>pipeline sends</source>
        <translation>流水线发送</translation>
    </message>
    <message>
        <source>the pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>exposed data-parallel communication</source>
        <translation>暴露的数据并行通信</translation>
    </message>
    <message>
        <source>expert-parallel all-to-all</source>
        <translation>专家并行 all-to-all</translation>
    </message>
    <message>
        <source>offload traffic</source>
        <translation>卸载流量</translation>
    </message>
    <message>
        <source>the optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <source>the assumed MFU %1 is %2 times the %3 the performance model predicts for this layout: its step of %4 s is %5% %6 (%7 s) against %8 s of GEMMs, so the time shown rests on the assumption; set cluster.mfu to &quot;predicted&quot; or try the layouts the search finds</source>
        <translation>假设的 MFU %1 是性能模型为此布局预测的 %3 的 %2 倍：在它 %4 s 的单步中，占比最大的一项是“%6”，占 %5%（%7 s），而 GEMM 只有 %8 s，所以显示的时间只建立在假设之上；请把 cluster.mfu 设为 &quot;predicted&quot;，或试试搜索找到的布局</translation>
    </message>
    <message>
        <source>with recomputation the hardware would run at %1 of its peak (HFU &gt; 1): lower the MFU</source>
        <translation>加上重计算后，硬件将以其峰值的 %1 运行（HFU &gt; 1）：请降低 MFU</translation>
    </message>
    <message>
        <source>Adafactor&apos;s factored state (rows + columns per matrix) needs the model&apos;s shapes; counted as 0 bytes per parameter</source>
        <translation>Adafactor 的分解状态（每个矩阵的行 + 列）需要模型的形状；按每参数 0 字节计</translation>
    </message>
    <message>
        <source>the fp32 master copy duplicates fp32 parameters; set training.master_dtype to &quot;none&quot;</source>
        <translation>fp32 主权重副本与 fp32 参数重复；请把 training.master_dtype 设为 &quot;none&quot;</translation>
    </message>
    <message>
        <source>selective recomputation changes nothing here: flash attention (or a model without attention) already keeps no attention scores</source>
        <translation>选择性重计算在这里不起作用：flash attention（或没有注意力的模型）本来就不保存注意力分数</translation>
    </message>
    <message>
        <source>context-parallel key/value exchange</source>
        <translation>上下文并行的键/值交换</translation>
    </message>
    <message>
        <source>kernel launch gaps</source>
        <translation>kernel 启动间隙</translation>
    </message>
    <message>
        <source>the SMs communication takes from compute</source>
        <translation>通信从计算中占用的 SM</translation>
    </message>
    <message>
        <source>does not fit: %1 GB needed per GPU, %2 has %3 GB; the largest batch that fits at %4 tokens of context is %5</source>
        <translation>放不下：每 GPU 需要 %1 GB，%2 只有 %3 GB；上下文 %4 个 token 时放得下的最大批次是 %5</translation>
    </message>
    <message>
        <source>tp %1 spans nodes of %2 GPUs: the all-reduces cross the network (%3 per GPU)</source>
        <translation>tp %1 跨越了每节点 %2 个 GPU 的节点：all-reduce 要经过网络（每 GPU %3）</translation>
    </message>
    <message>
        <source>tensor-parallel all-reduces take %1% of a decode step (%2% of them latency): at this batch a smaller tp or more replicas serve faster per GPU</source>
        <translation>张量并行的 all-reduce 占解码单步的 %1%（其中 %2% 是延迟）：在此批次下，更小的 tp 或更多副本的每 GPU 服务速度更快</translation>
    </message>
    <message>
        <source>%1 has no %2 peak: %3 weights are read at their size but multiplied in %4</source>
        <translation>%1 没有 %2 峰值：%3 权重按其大小读取，但用 %4 相乘</translation>
    </message>
    <message>
        <source>tp %1 spans scale-up domains of %2 GPUs: its all-reduces cross the %3 GB/s link between them (Narayanan et al. 2021, sec. 3.3: keep tp within a node)</source>
        <translation>tp %1 跨越了每个 %2 个 GPU 的纵向扩展域：它的 all-reduce 要经过域间 %3 GB/s 的链路（Narayanan et al. 2021，第 3.3 节：tp 应留在一个节点之内）</translation>
    </message>
    <message>
        <source>tp %1 spans more than the 2 cards an NVLink bridge joins: the all-reduces cross PCIe (%2 per GPU), with NCCL</source>
        <translation>tp %1 超出了 NVLink 桥连接的 2 张卡：all-reduce 要经过 PCIe（每 GPU %2），由 NCCL 完成</translation>
    </message>
    <message>
        <source>tensor parallel %1 (%2 GPUs a replica) fits the batch of %3: %4 GB per GPU of %5 GB</source>
        <translation>张量并行 %1（每个副本 %2 个 GPU）放得下 %3 个序列的批次：每 GPU %4 GB（容量 %5 GB）</translation>
    </message>
    <message>
        <source>no tensor parallel within a node of %1 GPUs fits the batch of %2: add pipeline stages (inference.pp), or store the weights or the KV cache in fewer bytes</source>
        <translation>在 %1 个 GPU 的节点内，没有哪种张量并行放得下 %2 个序列的批次：请增加流水线阶段（inference.pp），或以更少的字节存储权重或 KV 缓存</translation>
    </message>
    <message>
        <source>full recomputation saves no memory on this ReLU network: each layer keeps only its input, as a checkpoint would (ReLU&apos;s backward reads its output, the next layer&apos;s input), and the forward runs twice. It halves the memory only where the pre-ReLU values are kept too, as the lecture counts them; sqrt keeps every k-th layer&apos;s input (k about sqrt(L))</source>
        <translation>完全重计算在这个 ReLU 网络上省不下内存：每一层只保存它的输入，这和检查点保存的一样（ReLU 的反向读取的是它的输出，即下一层的输入），而前向要跑两遍。只有在 ReLU 之前的值也被保存时（像讲义那样计算），它才能省下一半内存；sqrt 只保存每 k 层的输入（k 约为 sqrt(L)）</translation>
    </message>
    <message>
        <source>activations not counted: a parameter-count model (kind &quot;params&quot;) has no architecture (pick a preset or give the dimensions)</source>
        <translation>未计入激活值：只给参数量的模型（kind &quot;params&quot;）没有架构（请选择一个预设或给出尺寸）</translation>
    </message>
    <message>
        <source>prompt + output = %1 tokens is past the %2 tokens of the model&apos;s context (model.context_length): the model was not trained on sequences this long, and engines refuse such a request unless told to (vLLM&apos;s max_model_len)</source>
        <translation>提示 + 输出 = %1 个 token，超过了模型的上下文长度 %2 个 token（model.context_length）：模型没有在这么长的序列上训练过，推理引擎也会拒绝这样的请求，除非另行设置（vLLM 的 max_model_len）</translation>
    </message>
    <message>
        <source>%1 training tokens are %2 of one optimizer step of %3 tokens (global batch %4 x sequence %5): a run takes whole steps, so it takes at least one, %6 s, where the time shown is a fraction of it</source>
        <translation>%1 个训练 token 只是一个优化器步（%3 个 token：全局批次 %4 x 序列 %5）的 %2：训练以整步进行，至少要一步，即 %6 s，而这里显示的时间只是它的一部分</translation>
    </message>
    <message>
        <source>continuous batching does not run: the engine&apos;s KV cache (%1) has %2 GB per GPU, and one sequence of %3 tokens takes %4 GB; no request is admitted and nothing is served</source>
        <translation>连续批处理无法运行：引擎的 KV 缓存（%1）每 GPU 有 %2 GB，而一条 %3 个 token 的序列要 %4 GB；没有请求被接纳，什么也服务不了</translation>
    </message>
    <message>
        <source>the pipeline bubble is %1% of the step&apos;s busy time ((pp - 1) / (v x micro-batches) = (%2 - 1) / (%3 x %4)); raise the global batch or lower pp</source>
        <translation>流水线气泡是单步忙碌时间的 %1%（(pp - 1) / (v x 微批次数) = (%2 - 1) / (%3 x %4)）；请增大全局批次或减小 pp</translation>
    </message>
    <message>
        <source>the profile&apos;s calibration (efficiency %1) was fitted on a run of %2 and this plan runs %3: the efficiency is the other software&apos;s, whose kernels and overlaps differ; calibrate on a run of this engine for a step to plan with</source>
        <translation>该配置的校准（效率 %1）是在 %2 的运行上拟合的，而这个规划使用 %3：这个效率属于另一套软件，其 kernel 与重叠方式不同；要得到可据以规划的单步时间，请用本引擎的运行来校准</translation>
    </message>
    <message>
        <source>the calibrated step puts the hardware at %1 of its peak (HFU &gt; 1): the profile&apos;s efficiency (%2), fitted on another run, does not carry to this plan; calibrate on a run like it</source>
        <translation>校准后的单步让硬件以其峰值的 %1 运行（HFU &gt; 1）：该配置在另一次运行上拟合的效率（%2）不适用于这个规划；请用与它相似的运行来校准</translation>
    </message>
    <message>
        <source>Megatron-Core stops an MoE layer that trains at tp %1 without sequence parallelism (moe_layer.py): set training.sequence_parallel, as its exports require</source>
        <translation>Megatron-Core 会中止在 tp %1 下不开序列并行训练的 MoE 层（moe_layer.py）：请设置 training.sequence_parallel，其导出也要求如此</translation>
    </message>
    <message>
        <source>the last pipeline stage runs the %1 multi-token-prediction module(s) beside the output layer and is the slowest: fewer layers there (training.last_stage_layers, Megatron&apos;s --decoder-last-pipeline-num-layers) even the pipeline, as Megatron-Bridge&apos;s DeepSeek-V3 layouts do</source>
        <translation>最后一个流水线阶段在输出层之外还运行 %1 个多 token 预测（MTP）模块，成为最慢的阶段：在那里少放几层（training.last_stage_layers，即 Megatron 的 --decoder-last-pipeline-num-layers）可使流水线均衡，Megatron-Bridge 的 DeepSeek-V3 布局正是如此</translation>
    </message>
    <message>
        <source>PyTorch FSDP has no stage that shards the optimizer state alone (its ShardingStrategy NO_SHARD, SHARD_GRAD_OP and FULL_SHARD are training.zero 0, 2 and 3): ZeRO-1 is planned as asked, but no FSDP run does it, and the exports refuse it</source>
        <translation>PyTorch FSDP 没有只切分优化器状态的阶段（它的 ShardingStrategy NO_SHARD、SHARD_GRAD_OP 和 FULL_SHARD 分别是 training.zero 0、2 和 3）：ZeRO-1 按要求规划，但没有哪次 FSDP 运行会这样做，导出也会拒绝它</translation>
    </message>
</context>
<context>
    <name>tally::workspace</name>
    <message>
        <source>a name that is not only digits (plans are looked up by name or by id)</source>
        <translation>一个不全是数字的名称（计划按名称或 id 查找）</translation>
    </message>
    <message>
        <source>custom or measured: built-in profiles come from the catalog and are read-only</source>
        <translation>自定义或实测：内置配置来自目录，是只读的</translation>
    </message>
    <message>
        <source>a name no other profile has (the built-in profile %1 has it)</source>
        <translation>一个其他配置都没有用过的名称（内置配置 %1 已使用它）</translation>
    </message>
    <message>
        <source>a name no other profile has (profile %1 has it)</source>
        <translation>一个其他配置都没有用过的名称（配置 %1 已使用它）</translation>
    </message>
    <message>
        <source>an id no built-in profile has (built-in: %1)</source>
        <translation>一个内置配置都没有用过的 id（内置：%1）</translation>
    </message>
    <message>
        <source>an id no other profile has (%1 has it; edit that one, or remove it first)</source>
        <translation>一个其他配置都没有用过的 id（%1 已使用它；请编辑那个配置，或先删除它）</translation>
    </message>
    <message>
        <source>the id of a profile (built-in: %1; stored ones: tally profiles list)</source>
        <translation>一个配置的 id（内置：%1；已保存的：tally profiles list）</translation>
    </message>
    <message>
        <source>a custom or measured profile: built-in profiles are read-only and cannot be edited (copy one with `tally profiles add --from %1`)</source>
        <translation>一个自定义或实测配置：内置配置是只读的，不能编辑（可用 `tally profiles add --from %1` 复制一份）</translation>
    </message>
    <message>
        <source>a custom or measured profile: built-in profiles are read-only and cannot be removed (copy one with `tally profiles add --from %1`)</source>
        <translation>一个自定义或实测配置：内置配置是只读的，不能删除（可用 `tally profiles add --from %1` 复制一份）</translation>
    </message>
    <message>
        <source>a name no other plan has (plan %1 has it; remove it first or pick another name)</source>
        <translation>一个其他计划都没有用过的名称（计划 %1 已使用它；请先删除它或另选名称）</translation>
    </message>
    <message>
        <source>the name or id of a saved plan (tally plans list)</source>
        <translation>一个已保存计划的名称或 id（tally plans list）</translation>
    </message>
    <message>
        <source>the id of a stored probe run (tally probes list)</source>
        <translation>一次已保存的探测运行的 id（tally probes list）</translation>
    </message>
    <message>
        <source>a JSON object</source>
        <translation>一个 JSON 对象</translation>
    </message>
    <message>
        <source>a finite number &gt;= 0</source>
        <translation>一个 &gt;= 0 的有限数</translation>
    </message>
    <message>
        <source>the name of the test (matmul, memory_bandwidth, ...)</source>
        <translation>测试的名称（matmul、memory_bandwidth 等）</translation>
    </message>
    <message>
        <source>a count &gt;= 0</source>
        <translation>一个 &gt;= 0 的计数</translation>
    </message>
    <message>
        <source>a calibrated profile</source>
        <translation>一个已校准的配置</translation>
    </message>
    <message>
        <source>a new id, or the id of this part&apos;s own profile (%1 or one calibrated from it): %2 is another profile</source>
        <translation>一个新的 id，或这个器件自己的配置的 id（%1 或由它校准而来的配置）：%2 是另一个配置</translation>
    </message>
    <message>
        <source>the time the run started (ISO 8601)</source>
        <translation>运行开始的时间（ISO 8601）</translation>
    </message>
    <message>
        <source>workspace %1: stored plan %2 (%3) does not read back as JSON. Was the file edited by hand? `tally plans show` without --json prints its text.</source>
        <translation>工作区 %1：存储的计划 %2（%3）无法作为 JSON 读回。这个文件是否被手动编辑过？不带 --json 的 `tally plans show` 会打印它的文本。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3 is busy: another Tally process (the app or a `tally` command) is writing to it (%4). Try again.</source>
        <translation>%1%2 时：工作区 %3 正忙：另一个 Tally 进程（应用或某个 `tally` 命令）正在写入它（%4）。请重试。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3 is busy: another Tally process (the app or a `tally` command) is writing to it (%4). Nothing was saved. Try again.</source>
        <translation>%1%2 时：工作区 %3 正忙：另一个 Tally 进程（应用或某个 `tally` 命令）正在写入它（%4）。没有保存任何内容。请重试。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: the disk is full, or the file reached a size limit (%4). Free some space and try again.</source>
        <translation>%1%2 时：工作区 %3：磁盘已满，或文件达到了大小上限（%4）。请释放一些空间后重试。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: the disk is full, or the file reached a size limit (%4). Nothing was saved. Free some space and try again.</source>
        <translation>%1%2 时：工作区 %3：磁盘已满，或文件达到了大小上限（%4）。没有保存任何内容。请释放一些空间后重试。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3 cannot be written: the file or its folder is read-only (%4).</source>
        <translation>%1%2 时：工作区 %3 无法写入：文件或其所在文件夹是只读的（%4）。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3 cannot be written: the file or its folder is read-only (%4). Nothing was saved.</source>
        <translation>%1%2 时：工作区 %3 无法写入：文件或其所在文件夹是只读的（%4）。没有保存任何内容。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3 is damaged (%4). Restore it from a backup, or pick another file.</source>
        <translation>%1%2 时：工作区 %3 已损坏（%4）。请从备份恢复它，或选择另一个文件。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3 is damaged (%4). Nothing was saved. Restore it from a backup, or pick another file.</source>
        <translation>%1%2 时：工作区 %3 已损坏（%4）。没有保存任何内容。请从备份恢复它，或选择另一个文件。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: another process saved a conflicting row first (%4).</source>
        <translation>%1%2 时：工作区 %3：另一个进程先保存了一条冲突的行（%4）。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: another process saved a conflicting row first (%4). Nothing was saved.</source>
        <translation>%1%2 时：工作区 %3：另一个进程先保存了一条冲突的行（%4）。没有保存任何内容。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: %4.</source>
        <translation>%1%2 时：工作区 %3：%4。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: %4. Nothing was saved.</source>
        <translation>%1%2 时：工作区 %3：%4。没有保存任何内容。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: %4%5 was removed or replaced by another program while Tally had the workspace open, so this connection no longer sees the file other programs write. This change may not have reached the file: check it after opening the workspace again. Everything saved before is in the file; open the workspace again to go on.</source>
        <translation>%1%2 时：工作区 %3：%4%5 在 Tally 打开工作区期间被另一个程序删除或替换，因此这个连接已看不到其他程序写入的文件。这次更改可能没有写入文件：请重新打开工作区后检查。之前保存的内容都在文件中；请重新打开工作区以继续。</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: %4%5 was removed or replaced by another program while Tally had the workspace open, so this connection no longer sees the file other programs write. Nothing was read or saved. Everything saved before is in the file; open the workspace again to go on.</source>
        <translation>%1%2 时：工作区 %3：%4%5 在 Tally 打开工作区期间被另一个程序删除或替换，因此这个连接已看不到其他程序写入的文件。没有读取或保存任何内容。之前保存的内容都在文件中；请重新打开工作区以继续。</translation>
    </message>
    <message>
        <source>the workspace file or its write-ahead log</source>
        <translation>工作区文件或其预写日志（WAL）</translation>
    </message>
    <message>
        <source>the workspace file</source>
        <translation>工作区文件</translation>
    </message>
    <message>
        <source>its write-ahead log</source>
        <translation>其预写日志（WAL）</translation>
    </message>
    <message>
        <source>its shared-memory index</source>
        <translation>其共享内存索引</translation>
    </message>
    <message>
        <source>workspace %1 cannot be written (the file or its folder is read-only) and was made by an older Tally (schema version %2, this build reads %3): open it once where it can be written, so that it is upgraded.</source>
        <translation>工作区 %1 无法写入（文件或其所在文件夹是只读的），且由较旧的 Tally 创建（schema 版本 %2，此版本读取 %3）：请在可以写入的位置打开它一次，以便升级。</translation>
    </message>
    <message>
        <source>opening</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>workspace %1 is not a regular file. It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 不是普通文件。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>recovering an interrupted write to</source>
        <translation>恢复被中断的写入</translation>
    </message>
    <message>
        <source>this build&apos;s SQLite does not enforce foreign keys</source>
        <translation>此版本所用的 SQLite 不强制执行外键（foreign keys）</translation>
    </message>
    <message>
        <source>creating</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>%1%2: workspace %3 is open read-only (the file or its folder cannot be written), so it can be browsed but not changed. Nothing was saved: copy it to a folder you can write to, or make it writable, to save there.</source>
        <translation>%1%2 时：工作区 %3 以只读方式打开（文件或其所在文件夹无法写入），因此可以浏览但不能更改。没有保存任何内容：请把它复制到你能写入的文件夹，或使它可写，以便在那里保存。</translation>
    </message>
    <message>
        <source>workspace %1: stored profile %2 does not read back (%3). Was the file edited by hand?</source>
        <translation>工作区 %1：存储的配置 %2 无法读回（%3）。这个文件是否被手动编辑过？</translation>
    </message>
    <message>
        <source>listing profiles</source>
        <translation>列出配置</translation>
    </message>
    <message>
        <source>reading profile</source>
        <translation>读取配置</translation>
    </message>
    <message>
        <source>saving profile</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>saving calibrated profile</source>
        <translation>保存校准后的配置</translation>
    </message>
    <message>
        <source>removing profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <source>saving measured profile</source>
        <translation>保存实测配置</translation>
    </message>
    <message>
        <source>listing plans</source>
        <translation>列出计划</translation>
    </message>
    <message>
        <source>reading plan</source>
        <translation>读取计划</translation>
    </message>
    <message>
        <source>saving plan</source>
        <translation>保存计划</translation>
    </message>
    <message>
        <source>renaming plan</source>
        <translation>重命名计划</translation>
    </message>
    <message>
        <source>removing plan</source>
        <translation>删除计划</translation>
    </message>
    <message>
        <source>saving probe run</source>
        <translation>保存探测运行</translation>
    </message>
    <message>
        <source>looking for the same probe run</source>
        <translation>查找相同的探测运行</translation>
    </message>
    <message>
        <source>importing probe run</source>
        <translation>导入探测运行</translation>
    </message>
    <message>
        <source>saving probe result</source>
        <translation>保存探测结果</translation>
    </message>
    <message>
        <source>listing probe runs</source>
        <translation>列出探测运行</translation>
    </message>
    <message>
        <source>reading probe run</source>
        <translation>读取探测运行</translation>
    </message>
    <message>
        <source>removing probe run</source>
        <translation>删除探测运行</translation>
    </message>
    <message>
        <source>workspace %1 was written by a newer Tally (schema version %2; this build reads versions 1 to %3). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 由较新的 Tally 写入（schema 版本 %2；此版本读取版本 1 到 %3）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>workspace %1 is an SQLite database of another program, not a Tally workspace (it has tables but no Tally schema version). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 是另一个程序的 SQLite 数据库，不是 Tally 工作区（它有表，但没有 Tally 的 schema 版本）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>workspace %1 is an SQLite database of another program, not a Tally workspace (application id %2). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 是另一个程序的 SQLite 数据库，不是 Tally 工作区（application id %2）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>workspace %1 is damaged (integrity check: %2). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 已损坏（完整性检查（integrity check）：%2）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>workspace %1 is damaged (%2). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 已损坏（%2）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>workspace %1 cannot be read (%2). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 无法读取（%2）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>workspace %1 cannot be read (%2).</source>
        <translation>工作区 %1 无法读取（%2）。</translation>
    </message>
    <message>
        <source>workspace %1 is not an SQLite database (it does not start with the SQLite header). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 不是 SQLite 数据库（它不以 SQLite 文件头开头）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>creating workspace %1: cannot create folder %2 (%3). Nothing was saved.</source>
        <translation>创建工作区 %1 时：无法创建文件夹 %2（%3）。没有保存任何内容。</translation>
    </message>
    <message>
        <source>creating workspace %1: %2 (the folder is read-only). Nothing was saved.</source>
        <translation>创建工作区 %1 时：%2（文件夹是只读的）。没有保存任何内容。</translation>
    </message>
    <message>
        <source>creating workspace %1: %2. Nothing was saved.</source>
        <translation>创建工作区 %1 时：%2。没有保存任何内容。</translation>
    </message>
    <message>
        <source>workspace %1 is damaged (a row of table %2 points at a missing row of %3). It was left untouched; pick another file or start a new workspace.</source>
        <translation>工作区 %1 已损坏（表 %2 的一行指向 %3 中不存在的行）。它未被改动；请选择另一个文件，或新建一个工作区。</translation>
    </message>
    <message>
        <source>a plan the workspace still holds as listed; another window or program removed or renamed it since the list was read (id %1)</source>
        <translation>一个仍以列表中样子保存在工作区的计划；自列表读取后，另一个窗口或程序删除或重命名了它（id %1）</translation>
    </message>
    <message>
        <source>%1%2: workspace %3: cannot lock %4, the file that tells other Tally processes the run is being recorded (%5). Nothing was saved.</source>
        <translation>%1%2 时：工作区 %3：无法锁定 %4（用来告诉其他 Tally 进程这次运行正在记录的文件）（%5）。没有保存任何内容。</translation>
    </message>
    <message>
        <source>finishing interrupted probe runs</source>
        <translation>结束被中断的探测运行</translation>
    </message>
    <message>
        <source>the profile as the editor read it; another window or program changed it since (open the editor again to edit what is stored now)</source>
        <translation>编辑器读取时的那个配置；此后另一个窗口或程序修改了它（请重新打开编辑器，编辑现在保存的内容）</translation>
    </message>
    <message>
        <source>a run that has ended: run %1 is being recorded now (status running, %2 results so far); make the profile once it has ended</source>
        <translation>一次已结束的运行：运行 %1 正在记录中（状态 running，目前 %2 个结果）；请等它结束后再生成配置</translation>
    </message>
    <message>
        <source>a run that is not being recorded: run %1 is being recorded now (status running); cancel it or let it end, then remove it</source>
        <translation>一次不在记录中的运行：运行 %1 正在记录中（状态 running）；请取消它或等它结束，再删除</translation>
    </message>
    <message>
        <source>an id that differs from the built-in %1 in more than letter case, so that a spec naming either is not read as the other</source>
        <translation>一个与内置配置 %1 不只是大小写不同的 id，以免规格中写的一个被当成另一个</translation>
    </message>
    <message>
        <source>an id that differs from profile %1&apos;s (%2) in more than letter case, so that a spec naming either is not read as the other</source>
        <translation>一个与配置 %1 的 id（%2）不只是大小写不同的 id，以免规格中写的一个被当成另一个</translation>
    </message>
    <message>
        <source>a run no measured profile was made from: run %2 made %1; remove those first (in the Profiles panel, or tally profiles rm %3), then the run</source>
        <translation>一次没有被用来生成实测配置的运行：运行 %2 生成了 %1；请先删除这些配置（在“硬件配置”面板中，或用 tally profiles rm %3），再删除这次运行</translation>
    </message>
    <message>
        <source>UTF-8 text</source>
        <translation>UTF-8 文本</translation>
    </message>
    <message>
        <source>the plan as listed; another window or program replaced it since the list was read (id %1): read the list again to see it before replacing it</source>
        <translation>列表所示的计划；读取列表之后，另一个窗口或程序已替换了它（id %1）：请重新读取列表，查看后再替换</translation>
    </message>
</context>
</TS>
