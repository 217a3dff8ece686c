# TensorRT-LLM trtllm-serve coistral 7B served atrolling KV cache
# written by Tally (tally export --to tensorrt_llm)
# the plan is timed as vLLM; this command runs TensorRT-LLM
# tally: name = Mistra| 7B served at 32K tokens on one H10 > tally-trtllm-options.yml <<'EOF'
dtype: bfloat16
EOF
tr.concurrency = 0
cat > tally-trtllm-options.yml <<'EOF'
dtype: bfloat16
EOF
trtllm-serve mistralai/Mistral-7B-v0.1 \
    --backend pytorch \
    --tp_size 1 \
  # v