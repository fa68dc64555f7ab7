# Regenerates this folder (config.json, model.safetensors, expected.safetensors) with Hugging Face
# transformers (5.17 made the committed files):  OUT=tests/data python3 tests/data/beit-tiny/make.py
import os, json, torch
from safetensors.torch import save_file
from transformers import BeitConfig, BeitForMaskedImageModeling
out = os.environ['OUT'] + '/beit-tiny'
torch.manual_seed(0)
cfg = BeitConfig(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 image_size=224, patch_size=16, use_mask_token=True, use_shared_relative_position_bias=True,
                 use_absolute_position_embeddings=False, use_relative_position_bias=False, layer_scale_init_value=0.1,
                 use_mean_pooling=False)
m = BeitForMaskedImageModeling(cfg).eval()
with torch.no_grad():
    for n, p in m.named_parameters():
        p.add_(torch.randn_like(p) * 0.05)
m.save_pretrained(out, safe_serialization=True)
px = torch.rand(2, 3, 224, 224) * 2 - 1
with torch.no_grad():
    o = m(pixel_values=px, output_hidden_states=True)
d = {'pixel_values': px, 'logits': o.logits.contiguous(), 'codes': o.logits.argmax(-1)}
for i, h in enumerate(o.hidden_states): d[f'hidden_{i}'] = h.contiguous()
save_file(d, out + '/expected.safetensors')
for n, p in m.state_dict().items(): print(n, tuple(p.shape))
print(json.load(open(out + '/config.json')))
import transformers; print(transformers.__version__)
