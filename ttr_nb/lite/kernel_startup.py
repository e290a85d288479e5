# PYTHONSTARTUP of the ttr_nb JupyterLite kernel (see ttr_nb/lite/warmup.py); runs in the user's namespace.
from ttr_nb.lite.warmup import warm as _ttr_nb_warm

_ttr_nb_warm()
del _ttr_nb_warm
