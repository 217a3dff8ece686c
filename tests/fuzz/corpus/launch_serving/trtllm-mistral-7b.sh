# TensorRT-LLM trtllm-serve command: Mistral 7B served at 32K tokens on one H100: the rolling KV cache
# written by Tally (tally export --to tensorrt_llm)
# the plan is timed as vLLM; this command runs TensorRT-LLM
# tally: name = Mistral 7B served at 32K tokens on one H100: the rolling KV cache
# tally: cluster.gpu = h100-sxm
# tally: cluster.gpus = 1
# tally: inference.engine = vllm
# tally: inference.prompt_tokens = 32000
# tally: inference.output_tokens = 768
# tally: inference.batch = 8
# tally: inference.concurrency = 0
cat > tally-trtllm-options.yml <<'EOF'
dtype: bfloat16
EOF
trtllm-serve mistralai/Mistral-7B-v0.1 \
    --backend pytorch \
    --tp_size 1 \
    --pp_size 1 \
    --max_batch_size 8 \
    --max_num_tokens 8192 \
    --max_seq_len 32768 \
    --kv_cache_free_gpu_memory_fraction 0.9 \
    --enable_chunked_prefill \
    --extra_llm_api_options tally-trtllm-options.yml
