"""User memory: durable facts and preferences learnt from the user's own words."""
