"""config/gunicorn.py, the settings `make venue` and docker-compose give gunicorn."""

import gc

from config import gunicorn


def test_a_worker_sets_aside_what_it_loaded_from_the_garbage_collector():
    """After a worker has loaded the app (`post_worker_init`), everything it holds is out
    of the collector's reach: a full collection no longer walks Django's own objects."""
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        gunicorn.post_worker_init(worker=None)
        # This process has Django, the app and pytest loaded: far more than a few objects.
        assert gc.get_freeze_count() > 10_000
        # What is made after stays the collector's: a cycle made now is still collected.
        cycle = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
