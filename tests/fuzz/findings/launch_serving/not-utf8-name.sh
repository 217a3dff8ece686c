# SGLang launch command: DeepSeek-V3 served on 8 H200 at fp8
# written by Tally (tally export --to sglang)
# the plan is timed as vLLM; this command runs SGLang
# tally: name = DeepSeek-V3 served on 8 --max_seq_l¥‘ßÌ072H200 at fp8
# tally: cluster.gpu = h200
# tally: cluster.gpus = 8
# tally: inference.engine = vllm
# tally: inference.prompt_tokens = 4096
# tally: inference.output_tokens = 1024
# tÿÿÿÿally: inference.batch = 64
# tally: inference.concurrency = 0
python -m sglang.launch_server \
    --model-path deepseek-ai/DeepSeek-V3 \
    --tp-size 8 \
    --pp-size 1 \
    --context-length 5120 \
    --max-running-requests 64 \
    --chunked-prefill-size 8192 \
    --max-prefill-tokens 8192 \
    --mem-fraction-static 0.81 \
    --quantization fp8 \
    --dtype bfloat16
