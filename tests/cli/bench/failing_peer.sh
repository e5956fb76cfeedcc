# A peer that fails the way the real one does under a Python without torch.
echo "Traceback (most recent call last):" >&2
echo "ModuleNotFoundError: No module named 'torch'" >&2
exit 1
