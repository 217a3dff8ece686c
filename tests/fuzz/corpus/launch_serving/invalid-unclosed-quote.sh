vllm serve meta-llama/Meta-Llama-3-8B --gpu-memory-utilization 'unclosed
