"""Clusters: full and partial repositories, cluster queues found at MQOPEN, the workload
algorithm, cluster-sender channels and their transmission queues."""
