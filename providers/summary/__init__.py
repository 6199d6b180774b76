"""The running summary of a long conversation (`summary`) and `/compact`."""
