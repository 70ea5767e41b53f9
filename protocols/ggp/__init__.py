"""General Game Playing over HTTP: the player (``miai ggp``), a local game master
(``miai gamemaster``), and the KIF messages both speak."""
