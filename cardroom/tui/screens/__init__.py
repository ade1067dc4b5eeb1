"""Screens: welcome, lobby, table, hand history, help, My Money, and hot-seat's pass screen."""
