python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --enable-dp-attention --dp 8 --trust-remote-code --mem-fraction-static 0.8
