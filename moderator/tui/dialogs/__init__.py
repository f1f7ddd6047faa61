"""The dialogs: modal screens over a phase screen (help, history, settings...)."""
