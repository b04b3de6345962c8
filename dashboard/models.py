"""Operations records: Celery tasks that failed, for the admin."""

from django.db import models


class TaskFailure(models.Model):
    """A Celery task that ended in failure (retries spent), written from a Celery signal."""

    task_id = models.CharField(max_length=64, db_index=True)
    task_name = models.CharField(max_length=200, db_index=True)
    # repr() of the arguments, cut to 2,000 characters.
    arguments = models.TextField(blank=True)
    exception = models.TextField()
    traceback = models.TextField(blank=True)
    failed_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-failed_at"]

    def __str__(self) -> str:
        return f"{self.task_name}[{self.task_id}]"
