"""Audio as numbers: WAV files, the ambience bed, and the mixer that lays clips over it.

Pure computation and file reading/writing; nothing here speaks or plays.
"""
