"""AWS price sources turned into plain records; no ORM, no writes.

- `records`: the records every reader returns (prices, Fargate rates, EBS volume rates,
  specifications, RDS prices).
- `products`: which Price List products and terms are Linux on-demand prices, EBS volume rates
  or Fargate rates.
- `price_list`: `get_products` responses (Price List API).
- `offer_files`: bulk offer files (JSON and CSV, streamed); an index given instead is named.
- `spot`: `describe_spot_price_history` responses.
- `instance_types`: `describe_instance_types` responses.
- `snapshot`: pricebench's own bundled price snapshot (CSV).
- `rds`: the rules for AmazonRDS products: DB instance prices, Aurora storage and I/O rates
  (read through `products`, like the others).
- `aws`: the boto3 clients and fetchers (the only module here that talks to AWS).

Every reader raises `DomainError` for input it cannot read, saying what and where.
"""
