# Megatron-LM arguments: Narayanan et al. 2021, Table 1: GPT 1008.0B on 3072 A100 (measured 163 TFLOP/s per GPU)
# written by Tally (tally export --to megatron)
torchrun --nnodes 384 --nproc-per-node 8 pretrain_gpt.py \
    --num-layers 128 \
    --hidden-size 25600 \
    --num-attention-heads 160 \
    --ffn-hidden-size 102400 \
    --vocab-size 51200 \
    --normalization LayerNorm \
    --position-embedding-type learned_absolute \
    --max-position-embeddings 2048 \
    --hidden-dropout 0.1 \
    --attention-dropout 0.1 \
    --seq-length 2048 \
    --micro-batch-size 1 \
    --global-batch-size 3072 \
    --train-samples 146484375 \
    --tensor-model-parallel-size 8 \
    --pipeline-model-parallel-size 64 \
    --context-parallel-size 1 \
    --expert-model-parallel-size 1 \
    --recompute-granularity full \
    --recompute-method uniform \
    --recompute-num-layers 1 \
    --optimizer adam \
    --bf16 \
    --attention-backend unfused
