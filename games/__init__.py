"""Games: the two rules engines (pure Python) and the Django app that serves matches over the API."""
