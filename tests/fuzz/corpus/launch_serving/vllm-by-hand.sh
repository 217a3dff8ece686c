# our production server
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve meta-llama/Meta-Llama-3-70B-Instruct \
  -tp 8 --max-model-len 8192 --gpu-memory-utilization=0.95 --kv-cache-dtype fp8 \
  --max-num-seqs 128 --port 8000 --disable-log-requests
