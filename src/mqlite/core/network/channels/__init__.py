"""Message channels: the decisions of a channel (sequence numbers, in-doubt resolution, batch
ends, retries) and the sync records and puts of its receiving end."""
