# this replaces our old trtllm-serve deployment
docker run --gpus all -p 8000:8000 --ipc=host vllm/vllm-openai:latest --model meta-llama/Meta-Llama-3-8B-Instruct -tp 1 --max-model-len 8k
