"""The tournament's rules without the database: a table's fold over its hands, warnings and
their price, pace, seating, names, the checks every service applies, the rulings where the
rulebook is silent. They may name the models' choices; they never query."""
