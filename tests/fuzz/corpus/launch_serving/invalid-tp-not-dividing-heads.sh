vllm serve meta-llama/Meta-Llama-3-8B -tp 3
