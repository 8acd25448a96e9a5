"""Room 25 taught at the table (issue 32): the lessons of a first game and which of them the
public record of a change fires. Reads only public events, so it can say no secret."""

from .lessons import LESSONS, Lesson, lesson, lesson_card, lesson_said
from .teacher import Teacher, fired

__all__ = ["LESSONS", "Lesson", "Teacher", "fired", "lesson", "lesson_card", "lesson_said"]
