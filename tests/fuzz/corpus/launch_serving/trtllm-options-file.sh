cat > extra.yml <<EOF
dtype: float16
kv_cache_config:
  dtype: fp8
  free_gpu_memory_fraction: 0.85
EOF
trtllm-serve meta-llama/Llama-2-7b-hf --tp_size 2 --max_batch_size 64 --max_num_tokens 4096 --max_seq_len 3072 --extra_llm_api_options extra.yml
