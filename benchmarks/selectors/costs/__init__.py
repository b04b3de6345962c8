"""What things cost: prices in force on a day and their periods, Fargate's rates, unit prices, the
cheapest regions and commitments."""
